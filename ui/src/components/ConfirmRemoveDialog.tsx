// Confirmation before removing a server; stays open and shows the error if removal fails.

import { useId, useState } from "react";
import { errorMessage } from "../api/GatehouseError";
import { Dialog } from "./Dialog";

type ConfirmRemoveDialogProps = {
  serverName: string;
  onConfirm: () => Promise<void>;
  onClose: () => void;
};

export function ConfirmRemoveDialog({ serverName, onConfirm, onClose }: ConfirmRemoveDialogProps) {
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
    <Dialog title="Remove server?" onClose={onClose} role="alertdialog" describedBy={messageId} testId="confirm-dialog">
      <p id={messageId} className="dialog-message">
        Remove <strong>{serverName}</strong>? Gatehouse will stop it and delete its configuration. This cannot be
        undone.
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
        <button
          type="button"
          className="button button-danger"
          onClick={confirm}
          disabled={busy}
          data-testid="confirm-remove"
        >
          {busy ? "Removing…" : "Remove"}
        </button>
      </div>
    </Dialog>
  );
}
