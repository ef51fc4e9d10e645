// The tasks section of the detail view: tool calls this server ran as tasks, newest first, whichever
// process started them (the app or `gatehouse call`); loading, error, empty and populated states.

import type { TasksState } from "../hooks/useTasks";
import { useNow } from "../hooks/useNow";
import { TaskItem } from "./TaskItem";

/** The engine lists at most this many tasks per server, the newest. */
const SHOWN = 50;

/** How often relative times ("3 min ago") are brought up to date. */
const CLOCK_MS = 30_000;

export function TaskList({ state }: { state: TasksState }) {
  const { tasks, loading, error, reload } = state;
  const now = useNow(CLOCK_MS);
  return (
    <section className="detail-section" aria-labelledby="tasks-heading" aria-busy={loading}>
      <div className="section-head">
        <h3 id="tasks-heading">
          Tasks{tasks !== null && <span className="count">{tasks.length}</span>}
        </h3>
        {/* Not disabled while loading: live events reload often, and the button should not flicker. */}
        <button type="button" className="button button-small" onClick={reload}>
          Refresh tasks
        </button>
      </div>
      {error !== null && (
        <p className="form-error" role="alert">
          Could not load tasks: {error}
        </p>
      )}
      {tasks === null && loading && <p className="muted">Loading tasks…</p>}
      {tasks !== null && (
        <ul className="task-list" data-testid="task-list">
          {tasks.map((task) => (
            <TaskItem key={task.taskId} task={task} now={now} />
          ))}
        </ul>
      )}
      {tasks?.length === 0 && (
        <p className="muted" data-testid="tasks-empty">
          Tool calls that run as tasks appear here while they run and after they finish.
        </p>
      )}
      {tasks !== null && tasks.length >= SHOWN && (
        <p className="muted task-list-note">Showing the {SHOWN} newest tasks.</p>
      )}
    </section>
  );
}
