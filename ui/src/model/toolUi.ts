// The `ui://` resource a tool's results are shown with (SEP-1865 "Resource Discovery"), as the
// engine lists it in `ToolInfo.ui` (only ui:// URIs are kept there).

import type { ToolInfo } from "../api/gatehouse";

/** The tool's UI resource URI, or null when it has none. */
export function toolResourceUri(tool: ToolInfo): string | null {
  const uri = tool.ui?.resourceUri;
  return uri?.startsWith("ui://") ? uri : null;
}
