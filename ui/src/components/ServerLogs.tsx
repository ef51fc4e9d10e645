// The Logs tab of a server: its stderr as the engine keeps it (redacted of its secrets), the
// newest at the bottom. Follows new lines (scrolling to them) until paused; a search box
// filters the lines. The list is virtualised (TanStack Virtual): 10,000 lines cost as much as
// the few on screen. Each line is cut for display (a stderr line can be 64 KiB).

import { useEffect, useMemo, useRef, useState } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useServerLogs } from "../hooks/useServerLogs";
import { capText, MAX_TEXT_CHARS } from "../model/capText";

const ROW_HEIGHT = 20;

export function ServerLogs({ serverId }: { serverId: string }) {
  const logs = useServerLogs(serverId);
  const [search, setSearch] = useState("");
  const needle = search.trim().toLowerCase();
  const lines = useMemo(
    () => (needle === "" ? logs.lines : logs.lines.filter((l) => l.line.toLowerCase().includes(needle))),
    [logs.lines, needle],
  );
  const scrollRef = useRef<HTMLDivElement>(null);
  // TanStack Virtual returns fresh functions each render by design; the React Compiler must
  // not memoise around them.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: lines.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 20,
  });

  // Following: keep the newest line in view.
  useEffect(() => {
    if (!logs.paused && lines.length > 0) virtualizer.scrollToIndex(lines.length - 1, { align: "end" });
  }, [lines.length, logs.paused, virtualizer]);

  return (
    <section className="detail-section server-logs" aria-labelledby="logs-heading">
      <div className="server-logs-toolbar">
        <h3 id="logs-heading">stderr</h3>
        <input
          type="search"
          className="server-logs-search"
          placeholder="Filter lines"
          aria-label="Filter log lines"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        {logs.paused ? (
          <button type="button" className="button button-small" onClick={logs.resume} data-testid="logs-resume">
            Follow{logs.waiting > 0 ? ` (${logs.waiting} new)` : ""}
          </button>
        ) : (
          <button type="button" className="button button-small" onClick={logs.pause} data-testid="logs-pause">
            Pause
          </button>
        )}
      </div>
      {logs.error !== null && <p className="error-text">{logs.error}</p>}
      {logs.missed > 0 && (
        <p className="muted" data-testid="logs-missed">
          {logs.missed} lines were dropped on the way here; reopen the tab to read the last ones again.
        </p>
      )}
      {logs.lines.length === 0 ? (
        <p className="muted" data-testid="logs-empty">
          No stderr lines yet. Secret values are hidden from every line kept.
        </p>
      ) : lines.length === 0 ? (
        <p className="muted">No line matches the filter.</p>
      ) : null}
      <div ref={scrollRef} className="server-logs-scroll" data-testid="logs-body" role="log" aria-live="off">
        <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {virtualizer.getVirtualItems().map((item) => {
            const line = lines[item.index];
            if (line === undefined) return null;
            return (
              <div
                key={line.seq}
                className="server-logs-line mono"
                data-testid="log-line"
                style={{ position: "absolute", top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
              >
                <span className="server-logs-time muted">{line.time.slice(11, 23)}</span>{" "}
                <span className="server-logs-text">{capText(line.line, MAX_TEXT_CHARS)}</span>
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}
