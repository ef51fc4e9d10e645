// The list of configured servers: sorted naturally (e2 before e10), filtered by a search over
// names, commands, URLs and tool names, virtualised (TanStack Virtual) so hundreds scroll
// smoothly, and driven from the keyboard: arrows, Home and End move the selection, `/` or
// Ctrl+F focus the search, Escape clears it, Enter in the search selects the first match.

import { observeElementRect, useVirtualizer } from "@tanstack/react-virtual";
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from "react";
import type { ServerView } from "../api/gatehouse";
import { useToolNames } from "../hooks/useToolNames";
import { naturalSortBy } from "../model/naturalSort";
import { serverMatches } from "../model/serverSearch";
import { ServerRow } from "./ServerRow";

type ServerListProps = {
  servers: ServerView[];
  selectedId: string | null;
  busyIds: ReadonlySet<string>;
  onSelect: (id: string) => void;
  onToggle: (view: ServerView, enabled: boolean) => void;
  onEdit: (view: ServerView) => void;
  onRemove: (view: ServerView) => void;
};

/** A row's height before it is measured: two dense lines. */
const ROW_ESTIMATE = 71;
/** The height assumed for a list box not laid out (hidden, or no layout engine at all). */
const UNLAID_HEIGHT = 800;

/** The index the key moves to from `current` in a list of `count`, or null for other keys. */
export function movedIndex(key: string, current: number, count: number): number | null {
  if (count === 0) return null;
  switch (key) {
    case "ArrowDown":
      return current < 0 ? 0 : Math.min(current + 1, count - 1);
    case "ArrowUp":
      return current < 0 ? 0 : Math.max(current - 1, 0);
    case "Home":
      return 0;
    case "End":
      return count - 1;
    default:
      return null;
  }
}

export function ServerList({ servers, selectedId, busyIds, onSelect, onToggle, onEdit, onRemove }: ServerListProps) {
  const [query, setQuery] = useState("");
  // The row to focus once rendered, after the selection moved by key (a ref: no re-render).
  const focusId = useRef<string | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const toolNames = useToolNames(servers);

  const sorted = useMemo(() => naturalSortBy(servers, (s) => s.config.name, (s) => s.config.id), [servers]);
  const shown = sorted.filter((s) => serverMatches(s, query, toolNames(s.config.id)));

  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE,
    getItemKey: (i) => shown[i]?.config.id ?? i,
    overscan: 8,
    gap: 6,
    // Unlaid elements (size 0) keep the estimates, so a window of rows still renders.
    measureElement: (element) => element.getBoundingClientRect().height || ROW_ESTIMATE,
    observeElementRect: (instance, cb) =>
      observeElementRect(instance, (rect) => cb(rect.height > 0 ? rect : { width: rect.width, height: UNLAID_HEIGHT })),
  });

  // `/` (outside a field) and Ctrl/Cmd+F focus the search, unless a dialog is open.
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      const target = e.target instanceof HTMLElement ? e.target : null;
      if (target?.closest("[role=dialog]")) return;
      const typing = target !== null && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
      const find = (e.key === "f" || e.key === "F") && (e.ctrlKey || e.metaKey) && !e.altKey;
      if (find || (e.key === "/" && !typing && !e.ctrlKey && !e.metaKey && !e.altKey)) {
        e.preventDefault();
        searchRef.current?.focus();
        searchRef.current?.select();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  // After the selection moved by key, focus the row it landed on once it is rendered.
  useEffect(() => {
    const id = focusId.current;
    if (id === null) return;
    const button = scrollRef.current?.querySelector<HTMLButtonElement>(`[data-server-id="${CSS.escape(id)}"] .server-row-name`);
    if (button) {
      button.focus();
      focusId.current = null;
    }
  });

  const moveTo = (index: number) => {
    const target = shown[index];
    if (target === undefined) return;
    onSelect(target.config.id);
    virtualizer.scrollToIndex(index, { align: "auto" });
    focusId.current = target.config.id;
  };

  const onListKey = (e: KeyboardEvent<HTMLElement>) => {
    if (!(e.target instanceof HTMLElement) || !e.target.classList.contains("server-row-name")) return;
    const current = shown.findIndex((s) => s.config.id === selectedId);
    const next = movedIndex(e.key, current, shown.length);
    if (next === null) return;
    e.preventDefault();
    moveTo(next);
  };

  const onSearchKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Escape" && query !== "") {
      e.preventDefault();
      setQuery("");
    } else if ((e.key === "Enter" || e.key === "ArrowDown") && shown.length > 0) {
      e.preventDefault();
      moveTo(e.key === "Enter" ? 0 : Math.max(0, shown.findIndex((s) => s.config.id === selectedId)));
    }
  };

  return (
    <div className="server-list-pane">
      <input
        ref={searchRef}
        type="search"
        className="input server-search"
        aria-label="Search servers"
        placeholder="Search name, command, URL or tool  ( / )"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={onSearchKey}
        data-testid="server-search"
      />
      {shown.length === 0 ? (
        <div className="server-list-none muted" role="status" data-testid="server-search-empty">
          No server matches “{query.trim()}”.{" "}
          <button type="button" className="button button-small" onClick={() => setQuery("")}>
            Clear search
          </button>
        </div>
      ) : (
        <div className="server-list-scroll" ref={scrollRef}>
          <ul
            className="server-list"
            aria-label="Servers"
            data-count={shown.length}
            style={{ height: virtualizer.getTotalSize() }}
            onKeyDown={onListKey}
          >
            {virtualizer.getVirtualItems().map((item) => {
              const view = shown[item.index];
              if (view === undefined) return null;
              return (
                <ServerRow
                  key={item.key}
                  index={item.index}
                  rowRef={virtualizer.measureElement}
                  style={{ transform: `translateY(${item.start}px)` }}
                  view={view}
                  selected={view.config.id === selectedId}
                  busy={busyIds.has(view.config.id)}
                  onSelect={() => onSelect(view.config.id)}
                  onToggle={(enabled) => onToggle(view, enabled)}
                  onEdit={() => onEdit(view)}
                  onRemove={() => onRemove(view)}
                />
              );
            })}
          </ul>
        </div>
      )}
    </div>
  );
}
