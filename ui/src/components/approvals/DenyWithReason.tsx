// The "deny with an optional reason" row every approval ends with: the reason field and the
// button. The reason is the parent's state, so a keyboard shortcut can deny with it too.

import type { ReactNode } from "react";
import type { Answer } from "../../api/gatehouse";

/** A denial, with the reason when one was typed. */
export function denial(reason: string): Answer {
  const trimmed = reason.trim();
  return { kind: "deny", reason: trimmed === "" ? null : trimmed };
}

type DenyWithReasonProps = {
  reason: string;
  onReason: (reason: string) => void;
  onDeny: () => void;
  busy: boolean;
  /** The button's text: "Deny", or "Decline" for what a server asks. */
  label: ReactNode;
};

export function DenyWithReason({ reason, onReason, onDeny, busy, label }: DenyWithReasonProps) {
  return (
    <div className="approval-deny">
      <input
        type="text"
        className="input"
        placeholder="Reason (optional)"
        value={reason}
        onChange={(e) => onReason(e.target.value)}
        aria-label="Reason"
        data-testid="deny-reason"
      />
      <button type="button" className="button button-danger" disabled={busy} onClick={onDeny} data-testid="deny">
        {label}
      </button>
    </div>
  );
}
