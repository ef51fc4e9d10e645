// Tests for useTasks: loading on mount, reloading on this server's tasks-changed events only,
// keeping the last list while reloading, errors, switching servers, and unsubscribing on unmount.

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { TaskRecord } from "../api/gatehouse";
import * as fake from "../test/fakeGatehouse";
import { makeTask } from "../test/serverFixtures";
import { useTasks } from "./useTasks";

vi.mock("../api/gatehouse", () => import("../test/fakeGatehouse"));

beforeEach(() => fake.resetFakeGatehouse());

function renderTasks(serverId = "srv-a") {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  return renderHook(({ id }) => useTasks(id), { initialProps: { id: serverId }, wrapper });
}

/** A promise the test settles by hand, to observe the hook mid-load. */
function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("useTasks", () => {
  it("loads the server's tasks on mount", async () => {
    const tasks = [makeTask("srv-a", "slow")];
    fake.listTasks.mockResolvedValue(tasks);
    const { result } = renderTasks();
    expect(result.current.loading).toBe(true);
    expect(result.current.tasks).toBeNull();
    await waitFor(() => expect(result.current.tasks).toEqual(tasks));
    expect(result.current.loading).toBe(false);
    expect(result.current.error).toBeNull();
    expect(fake.listTasks).toHaveBeenCalledWith("srv-a");
  });

  it("reloads on a tasks-changed event for this server only", async () => {
    const first = [makeTask("srv-a", "slow")];
    const second = [makeTask("srv-a", "slow", { status: "completed" })];
    fake.listTasks.mockResolvedValueOnce(first).mockResolvedValue(second);
    const { result } = renderTasks();
    await waitFor(() => expect(result.current.tasks).toEqual(first));

    act(() => fake.emitTasksChanged({ id: "srv-b" }));
    expect(fake.listTasks).toHaveBeenCalledTimes(1);
    expect(result.current.loading).toBe(false);

    act(() => fake.emitTasksChanged({ id: "srv-a" }));
    await waitFor(() => expect(result.current.tasks).toEqual(second));
    expect(fake.listTasks).toHaveBeenCalledTimes(2);
  });

  it("ignores server status events", async () => {
    const { result } = renderTasks();
    await waitFor(() => expect(result.current.loading).toBe(false));
    act(() => fake.emitStatus({ id: "srv-a", status: { state: "connecting" } }));
    expect(fake.listTasks).toHaveBeenCalledTimes(1);
  });

  it("keeps showing the last list while reloading", async () => {
    const first = [makeTask("srv-a", "slow")];
    const next = deferred<TaskRecord[]>();
    fake.listTasks.mockResolvedValueOnce(first).mockReturnValueOnce(next.promise);
    const { result } = renderTasks();
    await waitFor(() => expect(result.current.tasks).toEqual(first));

    act(() => fake.emitTasksChanged({ id: "srv-a" }));
    await waitFor(() => expect(result.current.loading).toBe(true));
    expect(result.current.tasks).toEqual(first);

    const second = [makeTask("srv-a", "fast"), ...first];
    await act(async () => {
      next.resolve(second);
      await next.promise;
    });
    await waitFor(() => expect(result.current.tasks).toEqual(second));
    expect(result.current.loading).toBe(false);
  });

  it("keeps only the newest answer when events arrive while loading", async () => {
    const stale = deferred<TaskRecord[]>();
    const fresh = [makeTask("srv-a", "fresh")];
    fake.listTasks.mockReturnValueOnce(stale.promise).mockResolvedValue(fresh);
    const { result } = renderTasks();
    act(() => fake.emitTasksChanged({ id: "srv-a" }));
    await waitFor(() => expect(result.current.tasks).toEqual(fresh));
    await act(async () => {
      stale.resolve([makeTask("srv-a", "stale")]);
      await stale.promise;
    });
    expect(result.current.tasks).toEqual(fresh);
  });

  it("exposes the error when loading fails, and recovers on reload", async () => {
    const tasks = [makeTask("srv-a", "slow")];
    fake.listTasks.mockRejectedValueOnce(new Error("database is locked")).mockResolvedValue(tasks);
    const { result } = renderTasks();
    await waitFor(() => expect(result.current.error).toBe("database is locked"));
    expect(result.current.tasks).toBeNull();
    expect(result.current.loading).toBe(false);

    act(() => result.current.reload());
    await waitFor(() => expect(result.current.tasks).toEqual(tasks));
    expect(result.current.error).toBeNull();
  });

  it("never shows another server's tasks after switching servers", async () => {
    const a = [makeTask("srv-a", "a")];
    const b = deferred<TaskRecord[]>();
    fake.listTasks.mockResolvedValueOnce(a).mockReturnValueOnce(b.promise);
    const { result, rerender } = renderTasks("srv-a");
    await waitFor(() => expect(result.current.tasks).toEqual(a));

    rerender({ id: "srv-b" });
    expect(result.current.tasks).toBeNull();
    expect(result.current.loading).toBe(true);
    expect(fake.listTasks).toHaveBeenLastCalledWith("srv-b");

    act(() => fake.emitTasksChanged({ id: "srv-a" }));
    expect(fake.listTasks).toHaveBeenCalledTimes(2);
    const tasksB = [makeTask("srv-b", "b")];
    await act(async () => {
      b.resolve(tasksB);
      await b.promise;
    });
    await waitFor(() => expect(result.current.tasks).toEqual(tasksB));
  });

  it("unsubscribes from tasks-changed events when unmounted", () => {
    const { unmount } = renderTasks();
    expect(fake.tasksSubscriberCount()).toBe(1);
    unmount();
    expect(fake.tasksSubscriberCount()).toBe(0);
  });
});
