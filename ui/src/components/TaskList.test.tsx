// Tests for the tasks section: each status's badge and message, times (kept up to date) and ids,
// the empty state, loading and error states, and the refresh button.

import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { TaskRecord } from "../api/gatehouse";
import type { TasksState } from "../hooks/useTasks";
import { makeTask } from "../test/serverFixtures";
import { TaskList } from "./TaskList";

function renderList(state: Partial<TasksState>) {
  const full: TasksState = { tasks: null, loading: false, error: null, reload: vi.fn(), ...state };
  render(<TaskList state={full} />);
  return full;
}

function minutesAgo(minutes: number): string {
  return new Date(Date.now() - minutes * 60_000).toISOString();
}

function item(taskId: string): HTMLElement {
  const found = screen.getAllByTestId("task-item").find((el) => el.dataset.taskId === taskId);
  if (!found) throw new Error(`no task item ${taskId}`);
  return found;
}

function taskCount(): Element | null {
  return screen.getByRole("heading", { name: /^Tasks/ }).querySelector(".count");
}

describe("TaskList", () => {
  it.each<[string, string, string, boolean]>([
    ["working", "Working", "task-badge-working", true],
    ["input_required", "Needs input", "task-badge-input-required", true],
    ["completed", "Completed", "task-badge-completed", false],
    ["failed", "Failed", "task-badge-failed", false],
    ["cancelled", "Cancelled", "task-badge-cancelled", false],
  ])("shows a %s task with its own badge", (status, label, badgeClass, running) => {
    const task = makeTask("srv", "slow_sum", { status, statusMessage: `message for ${status}` });
    renderList({ tasks: [task] });
    const row = item(task.taskId);
    expect(row).toHaveAttribute("data-status", status);
    expect(within(row).getByText("slow_sum")).toBeInTheDocument();
    const badge = within(row).getByTestId("task-status");
    expect(badge).toHaveTextContent(label);
    expect(badge).toHaveClass("badge", badgeClass);
    expect(row.classList.contains("task-running")).toBe(running);
    // Only a working task spins; the others show a dot.
    expect(badge.querySelector(".task-spinner") !== null).toBe(status === "working");
    expect(within(row).getByTestId("task-message")).toHaveTextContent(`message for ${status}`);
  });

  it("shows an unknown status as it is, in a neutral badge", () => {
    const task = makeTask("srv", "t", { status: "paused" });
    renderList({ tasks: [task] });
    const badge = within(item(task.taskId)).getByTestId("task-status");
    expect(badge).toHaveTextContent("paused");
    expect(badge).toHaveClass("task-badge-unknown");
  });

  it("lists tasks in the order given (newest first) with a count", () => {
    const tasks = [makeTask("srv", "newest"), makeTask("srv", "older"), makeTask("srv", "oldest")];
    renderList({ tasks });
    expect(screen.getAllByTestId("task-item").map((el) => el.dataset.taskId)).toEqual(tasks.map((t) => t.taskId));
    expect(taskCount()).toHaveTextContent(/^3$/);
  });

  it("says when a running task started and was last updated, and when a finished one ended", () => {
    const running = makeTask("srv", "a", { startedAt: minutesAgo(5), updatedAt: minutesAgo(2) });
    const finished = makeTask("srv", "b", { status: "completed", startedAt: minutesAgo(10), updatedAt: minutesAgo(3) });
    const fresh = makeTask("srv", "c");
    renderList({ tasks: [running, finished, fresh] });

    expect(within(item(running.taskId)).getByTestId("task-started")).toHaveTextContent("Started 5 min ago");
    expect(within(item(running.taskId)).getByTestId("task-updated")).toHaveTextContent("Updated 2 min ago");
    expect(within(item(finished.taskId)).getByTestId("task-updated")).toHaveTextContent("Ended 3 min ago");
    expect(within(item(fresh.taskId)).getByTestId("task-started")).toHaveTextContent("Started just now");
    expect(within(item(fresh.taskId)).queryByTestId("task-updated")).toBeNull();

    const time = within(item(running.taskId)).getByTestId("task-started").querySelector("time");
    expect(time).toHaveAttribute("datetime", running.startedAt);
    expect(time?.getAttribute("title")).toBeTruthy();
  });

  it("brings relative times up to date as time passes", () => {
    vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"] });
    try {
      vi.setSystemTime(Date.parse("2026-11-21T14:00:00.000Z"));
      const task = makeTask("srv", "slow");
      renderList({ tasks: [task] });
      expect(screen.getByTestId("task-started")).toHaveTextContent("Started just now");
      act(() => {
        vi.advanceTimersByTime(3 * 60_000);
      });
      expect(screen.getByTestId("task-started")).toHaveTextContent("Started 3 min ago");
    } finally {
      vi.useRealTimers();
    }
  });

  it("shows the task id in small print with a title", () => {
    const task = makeTask("srv", "a", { taskId: "786512e2-9e0d-44bd-8f29-789f320fe840" });
    renderList({ tasks: [task] });
    const id = within(item(task.taskId)).getByTitle("Task id: 786512e2-9e0d-44bd-8f29-789f320fe840");
    expect(id).toHaveTextContent("786512e2-9e0d-44bd-8f29-789f320fe840");
    expect(id).toHaveClass("mono");
  });

  it("leaves out an empty status message", () => {
    const task = makeTask("srv", "a", { statusMessage: "" });
    renderList({ tasks: [task] });
    expect(screen.queryByTestId("task-message")).toBeNull();
  });

  it("explains the section when there are no tasks", () => {
    renderList({ tasks: [] });
    expect(screen.getByTestId("tasks-empty")).toHaveTextContent(
      "Tool calls that run as tasks appear here while they run and after they finish.",
    );
    expect(screen.getByTestId("task-list")).toBeEmptyDOMElement();
    expect(taskCount()).toHaveTextContent(/^0$/);
  });

  it("says it is loading before the first list arrives", () => {
    renderList({ tasks: null, loading: true });
    expect(screen.getByText("Loading tasks…")).toBeInTheDocument();
    expect(screen.queryByTestId("task-list")).toBeNull();
    expect(screen.queryByTestId("tasks-empty")).toBeNull();
  });

  it("keeps the last list on screen while reloading", () => {
    renderList({ tasks: [makeTask("srv", "a")], loading: true });
    expect(screen.getAllByTestId("task-item")).toHaveLength(1);
    expect(screen.queryByText("Loading tasks…")).toBeNull();
  });

  it("shows the error when the tasks could not be loaded", () => {
    renderList({ tasks: null, error: "database is locked" });
    expect(screen.getByRole("alert")).toHaveTextContent("Could not load tasks: database is locked");
    expect(screen.queryByTestId("tasks-empty")).toBeNull();
  });

  it("notes that only the newest tasks are shown when the list is full", () => {
    const tasks: TaskRecord[] = Array.from({ length: 50 }, (_, i) => makeTask("srv", `t${i}`));
    renderList({ tasks });
    expect(screen.getByText("Showing the 50 newest tasks.")).toBeInTheDocument();
  });

  it("reloads when asked to", async () => {
    const state = renderList({ tasks: [] });
    await userEvent.click(screen.getByRole("button", { name: "Refresh tasks" }));
    expect(state.reload).toHaveBeenCalledTimes(1);
  });
});
