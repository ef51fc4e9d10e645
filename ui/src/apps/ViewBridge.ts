// The SDK's AppBridge, holding host-context changes until the view is initialized (SEP-1865
// "Sandbox proxy" 6: the host sends the view nothing before `ui/notifications/initialized`).
// `setHostContext` still updates the context at once, so a `ui/initialize` answered meanwhile
// carries the latest one; the changes held are sent, merged, once the view is open to them.

import { AppBridge } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { McpUiHostContext } from "@modelcontextprotocol/ext-apps/app-bridge";

export class ViewBridge extends AppBridge {
  private viewInitialized = false;
  private held: McpUiHostContext = {};

  override sendHostContextChange(params: McpUiHostContext): Promise<void> | void {
    if (this.viewInitialized) return super.sendHostContextChange(params);
    this.held = { ...this.held, ...params };
  }

  /** The view said `initialized`: changes go out from now on, first those held. */
  openToView(): Promise<void> | void {
    if (this.viewInitialized) return;
    this.viewInitialized = true;
    const held = this.held;
    this.held = {};
    if (Object.keys(held).length > 0) return super.sendHostContextChange(held);
  }
}
