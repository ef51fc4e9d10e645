// The host context Gatehouse gives a view (SEP-1865 "Host Context in McpUiInitializeResult"):
// theme and the window's style variables, display mode (inline or fullscreen), the container's
// size, locale, time zone, platform and the tool the view belongs to. Sent whole in the answer to
// `ui/initialize`; later changes go out as `ui/notifications/host-context-changed`. Inline, a
// view's height follows what it reports (`size-changed`), kept between 80 and 600 px.

import type { McpUiDisplayMode, McpUiHostContext, McpUiStyles } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { ToolInfo } from "../api/gatehouse";
import { HOST_DISPLAY_MODES } from "./appDisplayMode";

/** The tallest an inline view grows (px): its own reported height is bounded by this. */
export const MAX_INLINE_HEIGHT = 600;
/** The least height an inline view gets (px), whatever it reports. */
export const MIN_INLINE_HEIGHT = 80;

type Tool = NonNullable<McpUiHostContext["toolInfo"]>["tool"];

export type HostContextInput = {
  theme: "light" | "dark";
  styles: McpUiStyles;
  displayMode: McpUiDisplayMode;
  /** The width of the panel (inline) or the window (fullscreen), and in fullscreen its height. */
  container: { width: number; height: number };
  tool: ToolInfo;
  locale: string;
  timeZone: string;
};

export function buildHostContext(input: HostContextInput): McpUiHostContext {
  const { theme, styles, displayMode, container, tool, locale, timeZone } = input;
  return {
    theme,
    styles: { variables: styles },
    displayMode,
    availableDisplayModes: HOST_DISPLAY_MODES,
    // Fullscreen: the view fills a fixed area. Inline: a fixed width, and a height the view
    // chooses (size-changed) up to MAX_INLINE_HEIGHT.
    containerDimensions:
      displayMode === "fullscreen"
        ? { width: container.width, height: container.height }
        : { width: container.width, maxHeight: MAX_INLINE_HEIGHT },
    locale,
    timeZone,
    platform: "desktop",
    userAgent: "Gatehouse",
    deviceCapabilities: { hover: true, touch: false },
    toolInfo: { tool: toolDefinition(tool) },
  };
}

/** The tool as MCP spells it, from what the engine listed. */
export function toolDefinition(tool: ToolInfo): Tool {
  return {
    name: tool.name,
    ...(tool.title !== null && { title: tool.title }),
    ...(tool.description !== null && { description: tool.description }),
    // The engine passes the server's inputSchema on as it was listed (an object schema).
    inputSchema: tool.inputSchema as Tool["inputSchema"],
  };
}

/** The height an inline view gets for the height it reports. */
export function inlineHeight(reported: number): number {
  return Math.round(Math.min(MAX_INLINE_HEIGHT, Math.max(MIN_INLINE_HEIGHT, reported)));
}

/** The user's locale (a BCP 47 tag) and time zone, as the environment reports them. */
export function environmentLocale(language = navigator.language): { locale: string; timeZone: string } {
  const resolved = Intl.DateTimeFormat().resolvedOptions();
  // A webview under LANG=C reports "C", which is no BCP 47 tag; Intl's own locale is one.
  return { locale: canonicalLocale(language) ?? resolved.locale, timeZone: resolved.timeZone };
}

function canonicalLocale(tag: string): string | null {
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    return null;
  }
}
