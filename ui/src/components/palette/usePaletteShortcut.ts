// The palette's keyboard shortcut, registered once for the whole window: Cmd+K on macOS,
// Ctrl+K elsewhere; it opens the palette, or closes it when open.

import { useEffect } from "react";

export function isMac(): boolean {
  return typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
}

/** How the shortcut is written for this platform. */
export function shortcutLabel(): string {
  return isMac() ? "⌘K" : "Ctrl+K";
}

/** Whether `event` is the palette's shortcut on this platform. */
export function isPaletteShortcut(event: KeyboardEvent, mac = isMac()): boolean {
  const modifier = mac ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey;
  return modifier && !event.altKey && !event.shiftKey && event.key.toLowerCase() === "k";
}

export function usePaletteShortcut(toggle: () => void): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isPaletteShortcut(event) || event.repeat) return;
      event.preventDefault();
      toggle();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [toggle]);
}
