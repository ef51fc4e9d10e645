// Loads a server's task log (whatever its connection state: finished tasks stay in the log),
// and reloads it whenever a live event (`TasksChangedEvent`) says that server's tasks changed, or
// when asked to. The log is the `["tasks", serverId]` query of useLiveList.

import * as api from "../api/gatehouse";
import type { TaskRecord } from "../api/gatehouse";
import { type ChangeSubscription, useLiveList } from "./useLiveList";

export type TasksState = {
  /** Tasks of this server, newest first, from the latest successful load (kept visible while reloading). */
  tasks: TaskRecord[] | null;
  loading: boolean;
  error: string | null;
  reload: () => void;
};

const onTasksChanged: ChangeSubscription = (serverId, onChange) =>
  api.subscribeTasksChanged((event) => {
    if (event.id === serverId) onChange();
  });

export function useTasks(serverId: string): TasksState {
  const { items, ...rest } = useLiveList("tasks", serverId, true, api.listTasks, onTasksChanged);
  return { tasks: items, ...rest };
}
