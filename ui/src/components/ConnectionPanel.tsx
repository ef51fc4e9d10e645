// Explains a server's connection state in the detail view and offers Reconnect (and Enable).

import type { ServerStatus } from "../api/gatehouse";
import { statusExplanation } from "../model/describeStatus";
import { StatusBadge } from "./StatusBadge";

type ConnectionPanelProps = {
  status: ServerStatus;
  busy: boolean;
  onReconnect: () => void;
  onEnable: () => void;
};

export function ConnectionPanel({ status, busy, onReconnect, onEnable }: ConnectionPanelProps) {
  return (
    <section className={`connection-panel connection-${status.state}`} aria-labelledby="connection-heading">
      <div className="section-head">
        <h3 id="connection-heading">Connection</h3>
        <StatusBadge status={status} />
      </div>
      <p className="connection-explanation" data-testid="connection-explanation">
        {statusExplanation(status)}
      </p>
      <div className="connection-actions">
        {status.state === "disabled" && (
          <button type="button" className="button button-primary" onClick={onEnable} disabled={busy}>
            Enable
          </button>
        )}
        <button
          type="button"
          className={`button${status.state === "failed" ? " button-primary" : ""}`}
          onClick={onReconnect}
          disabled={busy}
          data-testid="reconnect-button"
        >
          {busy ? "Working…" : "Reconnect"}
        </button>
      </div>
    </section>
  );
}
