// Confirmation before an action that cannot be undone (removing a server or a client, revoking
// a token); stays open and shows the error if the action fails.

import { useId, useState } from "react";
import type { ReactNode } from "react";
import { errorMessage } from "../api/GatehouseError";
import { Dialog } from "./Dialog";

type ConfirmActionProps = {
  title: string;
  /** The confirm button's label, and while the action runs (default "Working…"). */
  action: string;
  busyLabel?: string;
  /** The confirm button's test id. */
  testId?: string;
  children: ReactNode;
  onConfirm: () => Promise<void>;
  onClose: () => void;
};

export function ConfirmAction({
  title,
  action,
  busyLabel = "Working…",
  testId = "confirm-action",
  children,
  onConfirm,
  onClose,
}: ConfirmActionProps) {
  const messageId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  };

  return (
    <Dialog title={title} onClose={onClose} role="alertdialog" describedBy={messageId} testId="confirm-dialog">
      <p id={messageId} className="dialog-message">
        {children}
      </p>
      {error !== null && (
        <p className="form-error" role="alert" data-testid="confirm-error">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose} data-autofocus>
          Cancel
        </button>
        <button type="button" className="button button-danger" onClick={confirm} disabled={busy} data-testid={testId}>
          {busy ? busyLabel : action}
        </button>
      </div>
    </Dialog>
  );
}
