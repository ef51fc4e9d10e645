// The header's button that opens the command palette, showing its shortcut.

import { shortcutLabel } from "./usePaletteShortcut";

export function PaletteButton({ onOpen }: { onOpen: () => void }) {
  const shortcut = shortcutLabel();
  return (
    <button
      type="button"
      className="button button-small palette-button"
      onClick={onOpen}
      aria-keyshortcuts={shortcut === "⌘K" ? "Meta+K" : "Control+K"}
      title={`Go to a page, server or tool, or run an action (${shortcut})`}
      data-testid="palette-button"
    >
      Go to… <kbd>{shortcut}</kbd>
    </button>
  );
}
