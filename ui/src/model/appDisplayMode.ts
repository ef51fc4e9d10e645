// Display modes (SEP-1865 "Display Modes"): Gatehouse offers inline and fullscreen. A view is
// never switched to a mode its `appCapabilities.availableDisplayModes` leaves out, when it sets
// them; a request for a mode that is not available is answered with the current mode.

import type { McpUiDisplayMode } from "@modelcontextprotocol/ext-apps/app-bridge";

/** The modes the host offers, in `hostContext.availableDisplayModes`. */
export const HOST_DISPLAY_MODES: McpUiDisplayMode[] = ["inline", "fullscreen"];

/** Whether the view may be shown in `mode`, given what it declared (undefined: it said nothing). */
export function viewAllows(mode: McpUiDisplayMode, appModes: readonly McpUiDisplayMode[] | undefined): boolean {
  return HOST_DISPLAY_MODES.includes(mode) && (appModes === undefined || appModes.includes(mode));
}

/** The mode that results from the view asking for `requested` while in `current`. */
export function answerDisplayModeRequest(
  requested: McpUiDisplayMode,
  current: McpUiDisplayMode,
  appModes: readonly McpUiDisplayMode[] | undefined,
): McpUiDisplayMode {
  return viewAllows(requested, appModes) ? requested : current;
}
