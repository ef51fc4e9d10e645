// Explains a server's connection state in the detail view and offers Reconnect, Stop and Start
// (and Enable, and Sign in when an HTTP server asks for authorization). Stop is offered while the
// engine runs the server (or is about to); Start replaces Reconnect when the server is stopped or
// crashed; Sign in shows for an HTTP server in `authRequired`. A server that exited shows its
// last stderr lines.

import type { ServerStatus } from "../api/gatehouse";
import { lastStderr, statusExplanation } from "../model/describeStatus";
import { StatusBadge } from "./StatusBadge";

type ConnectionPanelProps = {
  status: ServerStatus;
  busy: boolean;
  onReconnect: () => void;
  onStop: () => void;
  onStart: () => void;
  onEnable: () => void;
  /** Signs in to an HTTP server (absent for stdio servers). */
  onSignIn?: (() => void) | undefined;
  /** A sign-in is waiting for the browser. */
  signingIn?: boolean;
};

/** Whether the engine runs (or is about to run) the server, so that it can be stopped. */
function running(status: ServerStatus): boolean {
  return (
    status.state === "connected" ||
    status.state === "degraded" ||
    status.state === "connecting" ||
    status.state === "restarting" ||
    status.state === "reconnecting"
  );
}

export function ConnectionPanel({ status, busy, onReconnect, onStop, onStart, onEnable, onSignIn, signingIn = false }: ConnectionPanelProps) {
  const stderr = lastStderr(status);
  const halted = status.state === "stopped" || status.state === "crashed";
  return (
    <section className={`connection-panel connection-${status.state}`} aria-labelledby="connection-heading">
      <div className="section-head">
        <h3 id="connection-heading">Connection</h3>
        <StatusBadge status={status} />
      </div>
      <p className="connection-explanation" data-testid="connection-explanation">
        {statusExplanation(status)}
      </p>
      {stderr.length > 0 && (
        <pre className="connection-stderr mono" data-testid="connection-stderr" aria-label="Last lines the server wrote to stderr">
          {stderr.join("\n")}
        </pre>
      )}
      <div className="connection-actions">
        {status.state === "authRequired" && onSignIn !== undefined && (
          <button
            type="button"
            className="button button-primary"
            onClick={onSignIn}
            disabled={busy || signingIn}
            data-testid="sign-in-button"
          >
            {signingIn ? "Waiting for the browser…" : "Sign in"}
          </button>
        )}
        {status.state === "disabled" && (
          <button type="button" className="button button-primary" onClick={onEnable} disabled={busy}>
            Enable
          </button>
        )}
        {halted ? (
          <button type="button" className="button button-primary" onClick={onStart} disabled={busy} data-testid="start-button">
            {busy ? "Working…" : "Start"}
          </button>
        ) : (
          <button
            type="button"
            className={`button${status.state === "failed" ? " button-primary" : ""}`}
            onClick={onReconnect}
            disabled={busy}
            data-testid="reconnect-button"
          >
            {busy ? "Working…" : "Reconnect"}
          </button>
        )}
        {running(status) && (
          <button type="button" className="button" onClick={onStop} disabled={busy} data-testid="stop-button">
            Stop
          </button>
        )}
      </div>
    </section>
  );
}
