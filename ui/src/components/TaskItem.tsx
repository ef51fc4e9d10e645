// One task in a server's task log: the tool it runs, its status and status message, when it
// started and last changed, and its id.

import type { TaskRecord } from "../api/gatehouse";
import { describeTaskStatus } from "../model/describeTaskStatus";
import { localDateTime, relativeTime } from "../model/formatTaskTime";
import { TaskStatusBadge } from "./TaskStatusBadge";

type TaskItemProps = {
  task: TaskRecord;
  /** The current time (ms since the epoch) that relative times are measured from. */
  now: number;
};

export function TaskItem({ task, now }: TaskItemProps) {
  const { tone, running } = describeTaskStatus(task.status);
  const message = task.statusMessage ?? "";
  return (
    <li
      className={`task-item task-${tone}${running ? " task-running" : ""}`}
      data-testid="task-item"
      data-task-id={task.taskId}
      data-status={task.status}
    >
      <div className="task-head">
        <code className="tool-name">{task.tool}</code>
        <TaskStatusBadge status={task.status} />
      </div>
      {message !== "" && (
        <p className="task-message" data-testid="task-message">
          {message}
        </p>
      )}
      <p className="task-meta">
        <span data-testid="task-started">
          Started <TaskTime iso={task.startedAt} now={now} />
        </span>
        {task.updatedAt !== task.startedAt && (
          <span data-testid="task-updated">
            {running ? "Updated" : "Ended"} <TaskTime iso={task.updatedAt} now={now} />
          </span>
        )}
        <span className="mono task-id" title={`Task id: ${task.taskId}`}>
          {task.taskId}
        </span>
      </p>
    </li>
  );
}

function TaskTime({ iso, now }: { iso: string; now: number }) {
  return (
    <time dateTime={iso} title={localDateTime(iso)}>
      {relativeTime(iso, now)}
    </time>
  );
}
