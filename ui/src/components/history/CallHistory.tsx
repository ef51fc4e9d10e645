// A server's History tab: the tool calls made from this window, newest first, each with its
// arguments, its result (or why it failed) and Call again, which makes the same call anew (through
// the gate, as any call from the window) and adds it to the top. Kept in the window's memory.

import { type CallEntry, clearCalls, useCallHistory } from "../../model/callHistory";
import { useToolCall } from "../../hooks/useToolCall";
import { CallProgressBar } from "../CallProgressBar";
import { CallResult } from "../CallResult";
import { JsonView } from "../JsonView";

const time = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });

function outcomeLabel(entry: CallEntry): [string, string] {
  const { outcome } = entry;
  if (outcome.kind === "failed") return ["failed", "Failed"];
  const isError = outcome.kind === "result" ? outcome.result.isError : outcome.isError;
  if (outcome.kind === "result" && outcome.result.cancelled) return ["cancelled", "Cancelled"];
  return isError ? ["error", "Tool error"] : ["ok", "OK"];
}

function HistoryEntry({ serverId, entry }: { serverId: string; entry: CallEntry }) {
  const { state, call, cancel } = useToolCall(serverId, entry.tool);
  const [label, text] = outcomeLabel(entry);
  const { outcome } = entry;
  return (
    <li className="history-entry" data-testid="history-entry" data-tool-name={entry.tool} data-outcome={label}>
      <div className="history-entry-head">
        <code className="tool-name">{entry.tool}</code>
        <span className={`history-outcome history-outcome-${label}`}>{text}</span>
        <time className="muted" dateTime={new Date(entry.at).toISOString()}>
          {time.format(entry.at)}
        </time>
        <span className="spacer" />
        <button
          type="button"
          className="button button-small"
          data-testid="history-call-again"
          aria-label={`Call ${entry.tool} again with the same arguments`}
          disabled={state.phase === "running"}
          onClick={() => call(entry.args)}
        >
          Call again
        </button>
      </div>
      {state.phase === "running" && (
        <CallProgressBar progress={state.progress} taskStatus={state.taskStatus} cancelling={state.cancelling} onCancel={cancel} />
      )}
      <details className="history-args">
        <summary>Arguments</summary>
        <JsonView value={entry.args as never} label={`Arguments of the ${entry.tool} call`} />
      </details>
      {outcome.kind === "result" && <CallResult result={outcome.result} />}
      {outcome.kind === "too-large" && (
        <p className="muted">The result ({Math.round(outcome.bytes / 1024)} KiB) was too large to keep here.</p>
      )}
      {outcome.kind === "failed" && (
        <p className="form-error" role="alert">
          The call failed: {outcome.error}
        </p>
      )}
    </li>
  );
}

export function CallHistory({ serverId }: { serverId: string }) {
  const calls = useCallHistory(serverId);
  return (
    <section className="detail-section" aria-labelledby="history-heading" data-testid="call-history">
      <div className="section-head">
        <h3 id="history-heading">
          Calls from this window{calls.length > 0 && <span className="count">{calls.length}</span>}
        </h3>
        {calls.length > 0 && (
          <button type="button" className="button button-small" onClick={() => clearCalls(serverId)}>
            Clear
          </button>
        )}
      </div>
      {calls.length === 0 ? (
        <p className="muted" data-testid="history-empty">
          No calls yet. Calls you make with a tool&apos;s Call button appear here, newest first (the last 50, while the
          window is open), with Call again.
        </p>
      ) : (
        <ul className="history-list">
          {calls.map((entry) => (
            <HistoryEntry key={entry.id} serverId={serverId} entry={entry} />
          ))}
        </ul>
      )}
    </section>
  );
}
