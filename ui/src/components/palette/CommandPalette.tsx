// The command palette (Ctrl+K, ⌘K on macOS, or the header's button): a Radix Dialog with a
// search box over the pages, servers, their tools and the actions, fuzzy matched and grouped.
// Keyboard first: the box keeps the focus, ↑/↓ (and Home/End) move the highlighted entry
// (announced through aria-activedescendant), Enter opens it, Escape closes. Choosing an entry
// navigates to its URL; a tool's opens its server with the tool's Call form.

import * as RadixDialog from "@radix-ui/react-dialog";
import { useMemo, useState } from "react";
import type { KeyboardEvent } from "react";
import { useNavigate } from "react-router";
import { storeChoice } from "../../hooks/useTheme";
import type { PaletteEntry, PaletteResult } from "./paletteEntries";
import { searchPalette } from "./paletteEntries";
import { usePaletteEntries } from "./usePaletteEntries";
import { shortcutLabel } from "./usePaletteShortcut";

type CommandPaletteProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

export function CommandPalette({ open, onOpenChange }: CommandPaletteProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-backdrop palette-backdrop">
          <RadixDialog.Content className="dialog palette" data-testid="command-palette" aria-describedby="palette-keys">
            <RadixDialog.Title className="visually-hidden">Command palette</RadixDialog.Title>
            {open && <PaletteBody onDone={() => onOpenChange(false)} />}
          </RadixDialog.Content>
        </RadixDialog.Overlay>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

const optionId = (entry: PaletteEntry) => `palette-option-${entry.id.replace(/[^A-Za-z0-9_-]/g, "_")}`;

function PaletteBody({ onDone }: { onDone: () => void }) {
  const entries = usePaletteEntries();
  const navigate = useNavigate();
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const sections = useMemo(() => searchPalette(query, entries), [query, entries]);
  const flat = useMemo(() => sections.flatMap((s) => s.results), [sections]);
  const current = flat[Math.min(active, flat.length - 1)];

  const choose = (result: PaletteResult | undefined) => {
    if (result === undefined) return;
    onDone();
    if (result.entry.theme !== undefined) storeChoice(result.entry.theme);
    else void navigate(result.entry.to);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = flat.length - 1;
    const moves: Record<string, () => number> = {
      ArrowDown: () => (active >= last ? 0 : active + 1),
      ArrowUp: () => (active <= 0 ? last : active - 1),
      Home: () => 0,
      End: () => last,
    };
    const move = moves[event.key];
    if (move !== undefined && flat.length > 0) {
      event.preventDefault();
      setActive(move());
    } else if (event.key === "Enter") {
      event.preventDefault();
      choose(current);
    }
  };

  return (
    <>
      <input
        className="palette-input"
        type="text"
        role="combobox"
        aria-label="Search pages, servers, tools and actions"
        aria-expanded="true"
        aria-controls="palette-results"
        aria-autocomplete="list"
        aria-activedescendant={current === undefined ? undefined : optionId(current.entry)}
        placeholder="Go to a page, server or tool, or run an action…"
        value={query}
        autoFocus
        data-testid="palette-input"
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
      />
      <div id="palette-results" className="palette-results" role="listbox" aria-label="Results">
        {sections.map((section) => (
          <div key={section.group} role="group" aria-labelledby={`palette-group-${section.group}`} className="palette-group">
            <div id={`palette-group-${section.group}`} className="palette-group-label" role="presentation">
              {section.group}
            </div>
            {section.results.map((result) => {
              const selected = result === current;
              return (
                <div
                  key={result.entry.id}
                  id={optionId(result.entry)}
                  role="option"
                  aria-selected={selected}
                  className={`palette-option${selected ? " palette-option-active" : ""}`}
                  data-testid="palette-option"
                  data-entry-id={result.entry.id}
                  onMouseMove={() => !selected && setActive(flat.indexOf(result))}
                  onClick={() => choose(result)}
                >
                  <Highlighted text={result.entry.label} positions={result.match.positions} />
                  {result.entry.detail !== undefined && <span className="palette-detail">{result.entry.detail}</span>}
                </div>
              );
            })}
          </div>
        ))}
        {flat.length === 0 && (
          <p className="palette-empty muted" role="status">
            Nothing matches “{query}”.
          </p>
        )}
      </div>
      <p id="palette-keys" className="palette-keys">
        <kbd>↑</kbd> <kbd>↓</kbd> move · <kbd>Enter</kbd> open · <kbd>Esc</kbd> close · <kbd>{shortcutLabel()}</kbd> palette
      </p>
    </>
  );
}

/** The label with the matched characters marked (positions index the matched text, which starts with the label). */
function Highlighted({ text, positions }: { text: string; positions: number[] }) {
  const marked = new Set(positions.filter((p) => p < text.length));
  if (marked.size === 0) return <span className="palette-label">{text}</span>;
  return (
    <span className="palette-label">
      {Array.from({ length: text.length }, (_, i) => text.charAt(i)).map((ch, i) => (marked.has(i) ? <mark key={i}>{ch}</mark> : ch))}
    </span>
  );
}
