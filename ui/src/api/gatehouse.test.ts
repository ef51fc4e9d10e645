// Tests for the bindings wrapper: Result unwrapping, error mapping, and event subscription lifetime.

import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Mock } from "vitest";
import type { ServerStatusEvent, TasksChangedEvent } from "../bindings";

const bindings = vi.hoisted(() => ({
  commands: {
    listServers: vi.fn(),
    addServer: vi.fn(),
    updateServer: vi.fn(),
    removeServer: vi.fn(),
    setServerEnabled: vi.fn(),
    reconnectServer: vi.fn(),
    listTools: vi.fn(),
    listTasks: vi.fn(),
  },
  listenStatus: vi.fn(),
  listenTasks: vi.fn(),
}));

vi.mock("../bindings", () => ({
  commands: bindings.commands,
  events: {
    serverStatusEvent: { listen: bindings.listenStatus },
    tasksChangedEvent: { listen: bindings.listenTasks },
  },
}));

import {
  addServer,
  listServers,
  listTasks,
  removeServer,
  subscribeServerStatus,
  subscribeTasksChanged,
} from "./gatehouse";
import { GatehouseError } from "./GatehouseError";

beforeEach(() => {
  vi.resetAllMocks();
});

describe("command wrappers", () => {
  it("return the data of an ok result", async () => {
    bindings.commands.listServers.mockResolvedValue({ status: "ok", data: [] });
    await expect(listServers()).resolves.toEqual([]);
    bindings.commands.removeServer.mockResolvedValue({ status: "ok", data: null });
    await expect(removeServer("x")).resolves.toBeNull();
    expect(bindings.commands.removeServer).toHaveBeenCalledWith("x");
  });

  it("pass the server id to listTasks and return its records", async () => {
    const task = {
      serverId: "s",
      taskId: "t-1",
      tool: "slow",
      status: "working",
      statusMessage: null,
      pollMs: 500,
      recorderPid: 42,
      startedAt: "2026-11-21T14:00:00.000Z",
      updatedAt: "2026-11-21T14:00:00.000Z",
    };
    bindings.commands.listTasks.mockResolvedValue({ status: "ok", data: [task] });
    await expect(listTasks("s")).resolves.toEqual([task]);
    expect(bindings.commands.listTasks).toHaveBeenCalledWith("s");
  });

  it("throw a GatehouseError carrying the engine's code and message", async () => {
    bindings.commands.addServer.mockResolvedValue({
      status: "error",
      error: { code: "duplicate_name", message: "a server named x already exists" },
    });
    const error = await addServer({
      name: "x",
      enabled: true,
      roots: [],
      spec: { kind: "http", url: "http://h", transport: "auto", headers: [] },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatehouseError);
    expect(error).toMatchObject({ code: "duplicate_name", message: "a server named x already exists" });
  });

  it("map an IPC failure (thrown Error) to an internal GatehouseError", async () => {
    bindings.commands.listServers.mockRejectedValue(new TypeError("window.__TAURI_INTERNALS__ is undefined"));
    await expect(listServers()).rejects.toMatchObject({ code: "internal", message: "window.__TAURI_INTERNALS__ is undefined" });
  });

  it("cope with a malformed error payload", async () => {
    bindings.commands.listServers.mockResolvedValue({ status: "error", error: "plain string" });
    await expect(listServers()).rejects.toMatchObject({ code: "internal", message: "plain string" });
  });
});

// Both subscriptions share one implementation; each must reach its own event.
type Payload = ServerStatusEvent | TasksChangedEvent;
const subscriptions: [string, (onEvent: Mock) => () => void, "listenStatus" | "listenTasks", Payload][] = [
  ["subscribeServerStatus", subscribeServerStatus, "listenStatus", { id: "a", status: { state: "disabled" } }],
  ["subscribeTasksChanged", subscribeTasksChanged, "listenTasks", { id: "a" }],
];

describe.each(subscriptions)("%s", (_name, subscribeTo, listenerName, payload) => {
  it("forwards event payloads and unlistens on unsubscribe", async () => {
    const unlisten = vi.fn();
    let deliver: ((e: { payload: Payload }) => void) | undefined;
    bindings[listenerName].mockImplementation((cb: typeof deliver) => {
      deliver = cb;
      return Promise.resolve(unlisten);
    });
    const onEvent = vi.fn();
    const unsubscribe = subscribeTo(onEvent);
    await Promise.resolve();
    deliver?.({ payload });
    expect(onEvent).toHaveBeenCalledWith(payload);
    unsubscribe();
    expect(unlisten).toHaveBeenCalledTimes(1);
    deliver?.({ payload });
    expect(onEvent).toHaveBeenCalledTimes(1);
  });

  it("unlistens even when unsubscribed before the listener was registered", async () => {
    const unlisten = vi.fn();
    let resolveListen: (fn: () => void) => void = () => undefined;
    bindings[listenerName].mockReturnValue(new Promise<() => void>((r) => (resolveListen = r)));
    const unsubscribe = subscribeTo(vi.fn());
    unsubscribe();
    expect(unlisten).not.toHaveBeenCalled();
    resolveListen(unlisten);
    await vi.waitFor(() => expect(unlisten).toHaveBeenCalledTimes(1));
  });

  it("warns instead of throwing when there is no event bus", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    bindings[listenerName].mockRejectedValue(new Error("no Tauri"));
    const unsubscribe = subscribeTo(vi.fn());
    await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(1));
    expect(() => unsubscribe()).not.toThrow();
    warn.mockRestore();
  });
});
