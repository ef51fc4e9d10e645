// Coloured badge for a task's status; a working task's badge spins and one waiting for input pulses
// (both still under prefers-reduced-motion).

import { describeTaskStatus } from "../model/describeTaskStatus";

export function TaskStatusBadge({ status }: { status: string }) {
  const { label, tone } = describeTaskStatus(status);
  return (
    <span className={`badge task-badge task-badge-${tone}`} data-testid="task-status">
      <span className={tone === "working" ? "task-spinner" : "badge-dot"} aria-hidden="true" />
      {label}
    </span>
  );
}
