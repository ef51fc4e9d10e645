// The host context of one app view, kept current: the window's theme (the one on <html>, through
// useDocumentTheme, so a theme switch reaches the view as `host-context-changed`) and its style
// variables (model/appHostStyles), the display mode and the modes offered (inline, fullscreen),
// the size of the element the view is shown in (its width and a `maxHeight` of 600 inline; its
// width and height in fullscreen), the locale and time zone, the platform (`desktop`), and the
// tool.

import type { McpUiDisplayMode, McpUiHostContext } from "@modelcontextprotocol/ext-apps/app-bridge";
import { useEffect, useMemo, useState } from "react";
import type { ToolInfo } from "../api/gatehouse";
import { buildHostContext, environmentLocale } from "../model/appHostContext";
import { documentToken, hostStyleVariables } from "../model/appHostStyles";
import { useDocumentTheme } from "./useDocumentTheme";

type Size = { width: number; height: number };

/** The rounded size of `element`, followed while it is shown (0×0 where it cannot be measured). */
function useElementSize(element: HTMLElement | null): Size {
  const [size, setSize] = useState<Size>({ width: 0, height: 0 });
  useEffect(() => {
    if (element === null || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry === undefined) return;
      const width = Math.round(entry.contentRect.width);
      const height = Math.round(entry.contentRect.height);
      setSize((s) => (s.width === width && s.height === height ? s : { width, height }));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return size;
}

export function useAppHostContext(
  tool: ToolInfo,
  displayMode: McpUiDisplayMode,
  /** The element the view is shown in (null while there is none). */
  container: HTMLElement | null,
): McpUiHostContext {
  const theme = useDocumentTheme();
  const { width, height } = useElementSize(container);
  // Inline, only the width is the host's: the view chooses its height.
  const shownHeight = displayMode === "fullscreen" ? height : 0;
  return useMemo(
    () =>
      buildHostContext({
        theme,
        // The tokens' values for the theme now on <html>.
        styles: hostStyleVariables(documentToken),
        displayMode,
        container: { width, height: shownHeight },
        tool,
        ...environmentLocale(),
      }),
    [theme, displayMode, width, shownHeight, tool],
  );
}
