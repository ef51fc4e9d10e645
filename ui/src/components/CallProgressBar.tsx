// A running call: a progress bar (determinate once the server sends a total), the server's
// progress message and task status, and Cancel.

import type { CallProgress } from "../hooks/useToolCall";

type CallProgressBarProps = {
  progress: CallProgress | null;
  taskStatus: string | null;
  cancelling: boolean;
  onCancel: () => void;
};

export function CallProgressBar({ progress, taskStatus, cancelling, onCancel }: CallProgressBarProps) {
  const total = progress?.total ?? null;
  const done = progress?.progress ?? null;
  const determinate = total !== null && total > 0 && done !== null;
  return (
    <div className="call-progress" data-testid="call-progress" aria-live="polite">
      {determinate ? (
        <progress data-testid="call-progress-bar" max={total} value={Math.min(done, total)} />
      ) : (
        <progress data-testid="call-progress-bar" aria-label="Running" />
      )}
      <span className="muted" data-testid="call-progress-text">
        {determinate ? `${done} of ${total}` : done !== null ? `${done}` : "Running…"}
        {progress?.message ? ` · ${progress.message}` : ""}
        {taskStatus !== null ? ` · task ${taskStatus}` : ""}
      </span>
      <button
        type="button"
        className="button button-small"
        data-testid="tool-call-cancel"
        onClick={onCancel}
        disabled={cancelling}
      >
        {cancelling ? "Cancelling…" : "Cancel"}
      </button>
    </div>
  );
}
