// Human-readable label and visual tone for a task's status, and whether the task is still running.

/** The engine's task statuses; any other string is shown as it is, in a neutral style. */
export type TaskTone = "working" | "input-required" | "completed" | "failed" | "cancelled" | "unknown";

export type TaskStatusDescription = {
  label: string;
  tone: TaskTone;
  /** True while the task may still change (the server has not finished it). */
  running: boolean;
};

export function describeTaskStatus(status: string): TaskStatusDescription {
  switch (status) {
    case "working":
      return { label: "Working", tone: "working", running: true };
    case "input_required":
      return { label: "Needs input", tone: "input-required", running: true };
    case "completed":
      return { label: "Completed", tone: "completed", running: false };
    case "failed":
      return { label: "Failed", tone: "failed", running: false };
    case "cancelled":
      return { label: "Cancelled", tone: "cancelled", running: false };
    default:
      return { label: status || "Unknown", tone: "unknown", running: false };
  }
}
