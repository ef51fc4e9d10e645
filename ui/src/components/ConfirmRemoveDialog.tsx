// Confirmation before removing a server; stays open and shows the error if removal fails.

import { ConfirmAction } from "./ConfirmAction";

type ConfirmRemoveDialogProps = {
  serverName: string;
  onConfirm: () => Promise<void>;
  onClose: () => void;
};

export function ConfirmRemoveDialog({ serverName, onConfirm, onClose }: ConfirmRemoveDialogProps) {
  return (
    <ConfirmAction
      title="Remove server?"
      action="Remove"
      busyLabel="Removing…"
      testId="confirm-remove"
      onConfirm={onConfirm}
      onClose={onClose}
    >
      Remove <strong>{serverName}</strong>? Gatehouse will stop it and delete its configuration. This cannot be undone.
    </ConfirmAction>
  );
}
