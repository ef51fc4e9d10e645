// Tests for the bindings wrapper: Result unwrapping, error mapping, and event subscription lifetime.

import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ServerStatusEvent } from "../bindings";

const bindings = vi.hoisted(() => ({
  commands: {
    listServers: vi.fn(),
    addServer: vi.fn(),
    updateServer: vi.fn(),
    removeServer: vi.fn(),
    setServerEnabled: vi.fn(),
    reconnectServer: vi.fn(),
    listTools: vi.fn(),
  },
  listen: vi.fn(),
}));

vi.mock("../bindings", () => ({
  commands: bindings.commands,
  events: { serverStatusEvent: { listen: bindings.listen } },
}));

import { addServer, listServers, removeServer, subscribeServerStatus } from "./gatehouse";
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

describe("subscribeServerStatus", () => {
  it("forwards event payloads and unlistens on unsubscribe", async () => {
    const unlisten = vi.fn();
    let deliver: ((e: { payload: ServerStatusEvent }) => void) | undefined;
    bindings.listen.mockImplementation((cb: typeof deliver) => {
      deliver = cb;
      return Promise.resolve(unlisten);
    });
    const onEvent = vi.fn();
    const unsubscribe = subscribeServerStatus(onEvent);
    await Promise.resolve();
    deliver?.({ payload: { id: "a", status: { state: "disabled" } } });
    expect(onEvent).toHaveBeenCalledWith({ id: "a", status: { state: "disabled" } });
    unsubscribe();
    expect(unlisten).toHaveBeenCalledTimes(1);
  });

  it("unlistens even when unsubscribed before the listener was registered", async () => {
    const unlisten = vi.fn();
    let resolveListen: (fn: () => void) => void = () => undefined;
    bindings.listen.mockReturnValue(new Promise<() => void>((r) => (resolveListen = r)));
    const unsubscribe = subscribeServerStatus(vi.fn());
    unsubscribe();
    expect(unlisten).not.toHaveBeenCalled();
    resolveListen(unlisten);
    await vi.waitFor(() => expect(unlisten).toHaveBeenCalledTimes(1));
  });
});
