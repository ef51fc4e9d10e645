// The `ui://` resource a tool's results are shown with (SEP-1865 "Resource Discovery"), as the
// engine lists it in `ToolInfo.ui` (only ui:// URIs are kept there).

import type { ToolInfo } from "../api/gatehouse";

type ToolUiFields = { ui?: { resourceUri?: string | null } | null };

/** The tool's UI resource URI, or null when it has none. */
export function toolResourceUri(tool: ToolInfo): string | null {
  const uri = (tool as ToolInfo & ToolUiFields).ui?.resourceUri;
  return typeof uri === "string" && uri.startsWith("ui://") ? uri : null;
}
