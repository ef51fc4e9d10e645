// After the first run's demo server is added: what to do next (call its echo tool, whose Call
// form is open below once it connects) and where the call shows (the Audit page).

export function FirstRunHint({ onDismiss }: { onDismiss: () => void }) {
  return (
    <div className="first-run-hint" role="status" data-testid="first-run-hint">
      <p>
        The demo server is added. Its <code>echo</code> tool's Call form opens below once it connects: type a message and press
        Call. Every call goes through Gatehouse's gate and is recorded:{" "}
        <a href="#/audit" data-testid="first-run-audit-link">
          see it on the Audit page
        </a>
        .
      </p>
      <button type="button" className="link-button" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
