// The Traffic tab of a server: every JSON-RPC message in and out of its connection as the
// engine recorded it (secrets redacted there), newest at the bottom: time, direction, method,
// id, latency (responses) and size. Filters by method text and direction; Pause freezes the view
// and counts what arrives meanwhile; a row opens the message (`TrafficMessage`). The table is
// virtualised (TanStack Virtual) and holds at most MAX_ENTRIES messages, like the engine.

import { useEffect, useMemo, useRef, useState } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import type { TrafficEntry } from "../../api/gatehouse";
import { capText, MAX_NAME_CHARS } from "../../model/capText";
import { TrafficMessage } from "./TrafficMessage";
import { filterEntries, formatLatency, formatSize, type DirectionFilter } from "./trafficModel";
import { useServerTraffic } from "./useServerTraffic";

const ROW_HEIGHT = 24;

const DIRECTIONS: [DirectionFilter, string][] = [
  ["all", "Both ways"],
  ["sent", "Sent only"],
  ["received", "Received only"],
];

function TrafficRow({ entry, selected, onSelect, top }: { entry: TrafficEntry; selected: boolean; onSelect: () => void; top: number }) {
  const sent = entry.direction === "sent";
  return (
    <div
      role="row"
      aria-selected={selected}
      tabIndex={0}
      className={`traffic-row mono${selected ? " traffic-row-selected" : ""}`}
      data-method={entry.method ?? ""}
      data-direction={entry.direction}
      data-testid="traffic-row"
      onClick={onSelect}
      onKeyDown={(e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          onSelect();
        }
      }}
      style={{ position: "absolute", top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${top}px)` }}
    >
      <span role="cell" className="traffic-time muted">{entry.time.slice(11, 23)}</span>
      <span role="cell" className={`traffic-direction ${sent ? "traffic-sent" : "traffic-received"}`} aria-label={sent ? "sent" : "received"}>
        {sent ? "→" : "←"}
      </span>
      <span role="cell" className="traffic-method">{capText(entry.method ?? "", MAX_NAME_CHARS)}</span>
      <span role="cell" className="traffic-id muted">{capText(entry.id ?? "", 24)}</span>
      <span role="cell" className="traffic-latency">{formatLatency(entry.latencyMs)}</span>
      <span role="cell" className="traffic-size muted">{formatSize(entry.size)}</span>
    </div>
  );
}

export function TrafficTab({ serverId }: { serverId: string }) {
  const traffic = useServerTraffic(serverId);
  const [method, setMethod] = useState("");
  const [direction, setDirection] = useState<DirectionFilter>("all");
  const [selectedSeq, setSelectedSeq] = useState<number | null>(null);
  const entries = useMemo(() => filterEntries(traffic.entries, method, direction), [traffic.entries, method, direction]);
  const selected = selectedSeq === null ? undefined : traffic.entries.find((e) => e.seq === selectedSeq);
  const scrollRef = useRef<HTMLDivElement>(null);
  // TanStack Virtual returns fresh functions each render by design; the React Compiler must
  // not memoise around them.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 20,
  });

  // Following: keep the newest message in view, unless paused or one is open.
  const following = !traffic.paused && selectedSeq === null;
  useEffect(() => {
    if (following && entries.length > 0) virtualizer.scrollToIndex(entries.length - 1, { align: "end" });
  }, [entries.length, following, virtualizer]);

  return (
    <section className="detail-section traffic" aria-labelledby="traffic-heading">
      <div className="traffic-toolbar">
        <h3 id="traffic-heading">JSON-RPC messages</h3>
        <input
          type="search"
          className="traffic-filter"
          data-testid="traffic-filter"
          placeholder="Filter by method"
          aria-label="Filter messages by method"
          value={method}
          onChange={(e) => setMethod(e.target.value)}
        />
        <select aria-label="Direction" value={direction} onChange={(e) => setDirection(e.target.value as DirectionFilter)} data-testid="traffic-direction">
          {DIRECTIONS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        {traffic.paused ? (
          <button type="button" className="button button-small" onClick={traffic.resume} data-testid="traffic-resume">
            Resume{traffic.waiting > 0 ? ` (${traffic.waiting} new)` : ""}
          </button>
        ) : (
          <button type="button" className="button button-small" onClick={traffic.pause} data-testid="traffic-pause">
            Pause
          </button>
        )}
      </div>
      {traffic.error !== null && <p className="error-text">{traffic.error}</p>}
      {traffic.dropped > 0 && (
        <p className="muted" data-testid="traffic-dropped">
          {traffic.dropped} older messages were dropped to stay within the bounds (2,000 messages, 8 MiB per server).
        </p>
      )}
      {traffic.entries.length === 0 ? (
        <p className="muted" data-testid="traffic-empty">
          No messages yet. Every message to and from this server shows here, with secret values hidden.
        </p>
      ) : entries.length === 0 ? (
        <p className="muted">No message matches the filter.</p>
      ) : null}
      <div className="traffic-head mono muted" aria-hidden="true">
        <span className="traffic-time">Time</span>
        <span className="traffic-direction">Dir</span>
        <span className="traffic-method">Method</span>
        <span className="traffic-id">Id</span>
        <span className="traffic-latency">Latency</span>
        <span className="traffic-size">Size</span>
      </div>
      <div ref={scrollRef} className="traffic-scroll" data-testid="traffic-body" role="table" aria-label="Messages" aria-rowcount={entries.length}>
        <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {virtualizer.getVirtualItems().map((item) => {
            const entry = entries[item.index];
            if (entry === undefined) return null;
            return (
              <TrafficRow
                key={entry.seq}
                entry={entry}
                top={item.start}
                selected={entry.seq === selectedSeq}
                onSelect={() => setSelectedSeq(entry.seq)}
              />
            );
          })}
        </div>
      </div>
      {selected !== undefined && <TrafficMessage entry={selected} onClose={() => setSelectedSeq(null)} />}
    </section>
  );
}
