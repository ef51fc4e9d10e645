// The detail pane of the Traffic tab: one message as the engine kept it (redacted of secrets),
// pretty-printed when whole, with a Copy button; a message cut in the engine says so and how
// large it was.

import { useState } from "react";
import type { TrafficEntry } from "../../api/gatehouse";
import { formatLatency, formatSize, messageText } from "./trafficModel";

type Copied = "idle" | "copied" | "failed";

export function TrafficMessage({ entry, onClose }: { entry: TrafficEntry; onClose: () => void }) {
  const [copied, setCopied] = useState<{ seq: number; state: Copied }>({ seq: entry.seq, state: "idle" });
  const state = copied.seq === entry.seq ? copied.state : "idle";
  const text = messageText(entry);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied({ seq: entry.seq, state: "copied" });
    } catch {
      setCopied({ seq: entry.seq, state: "failed" });
    }
  };
  const title = `${entry.direction === "sent" ? "Sent" : "Received"} ${entry.method ?? "message"}`;
  return (
    <section className="traffic-message" aria-label="Selected message" data-testid="traffic-message">
      <div className="traffic-message-header">
        <h4 className="traffic-message-title">
          {title}
          {entry.id !== null && <span className="muted"> · id {entry.id}</span>}
        </h4>
        <span className="muted">
          {entry.time.slice(11, 23)} · {formatSize(entry.size)}
          {entry.latencyMs !== null && ` · ${formatLatency(entry.latencyMs)}`}
        </span>
        <button type="button" className="button button-small" onClick={() => void copy()} data-testid="traffic-copy">
          {state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : "Copy"}
        </button>
        <button type="button" className="button button-small" onClick={onClose} aria-label="Close message">
          Close
        </button>
      </div>
      {entry.truncated && (
        <p className="muted" data-testid="traffic-truncated">
          Truncated: the first {formatSize(entry.message.length)} of {formatSize(entry.size)} are kept.
        </p>
      )}
      <pre className="json-view traffic-message-body" data-testid="traffic-message-body" tabIndex={0} aria-label="Message JSON">
        {text}
      </pre>
    </section>
  );
}
