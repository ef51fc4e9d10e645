// The transport between the window and one app view, which runs in a webview of its own: what
// the host says goes to the view's proxy page through the shell (`app_post_to_view`), and what
// the view says comes back through the sandbox scheme's relay as `AppViewMessagesEvent`s naming
// the view. Only events for this view, and only well-formed JSON-RPC messages, reach the bridge;
// nothing of the window's DOM or globals is reachable from the view's webview.

import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import { parseJSONRPCMessage } from "@modelcontextprotocol/client";
import { appPostToView, listenAppViewMessages } from "../api/gatehouse";
import type { AppViewMessagesEvent } from "../api/gatehouse";

export class RelayTransport implements Transport {
  private readonly sandboxUrl: string;
  private unlisten: (() => void) | null = null;
  private closed = false;

  onmessage?: Transport["onmessage"];
  onerror?: Transport["onerror"];
  onclose?: Transport["onclose"];

  constructor(sandboxUrl: string) {
    this.sandboxUrl = sandboxUrl;
  }

  /** Resolves once the window listens for the view's messages (place the view after that). */
  async start(): Promise<void> {
    const unlisten = await listenAppViewMessages((event) => this.receive(event));
    if (this.closed) unlisten();
    else this.unlisten = unlisten;
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.resolve();
    return appPostToView(this.sandboxUrl, message).then(() => undefined);
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.unlisten?.();
    this.unlisten = null;
    this.onclose?.();
    return Promise.resolve();
  }

  private receive(event: AppViewMessagesEvent): void {
    if (this.closed || event.view !== this.sandboxUrl) return;
    for (const raw of event.messages) {
      let message: JSONRPCMessage;
      try {
        message = parseJSONRPCMessage(raw);
      } catch (e) {
        this.onerror?.(new Error(`Invalid JSON-RPC message from the app view: ${String(e)}`));
        continue;
      }
      this.onmessage?.(message);
    }
  }
}
