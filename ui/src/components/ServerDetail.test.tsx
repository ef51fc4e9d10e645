// Tests for the detail view: tool list rendering, what a server without tools offers,
// not-connected explanations, reconnect, live refresh, degraded and reconnecting servers,
// the task log for every connection state,
// and a configuration summary that never renders env/header values, least of all secret ones,
// and lists roots as paths.

import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ServerSpec, ServerStatus } from "../api/gatehouse";
import * as fake from "../test/fakeGatehouse";
import {
  connected,
  makeTask,
  makeTool,
  plainEnv,
  plainHeader,
  secretEnv,
  secretHeader,
} from "../test/serverFixtures";
import { renderDetail } from "../test/renderDetail";

vi.mock("../api/gatehouse", () => import("../test/fakeGatehouse"));

beforeEach(() => fake.resetFakeGatehouse());


describe("ServerDetail", () => {
  it("lists the tools of a connected server with an expandable input schema", async () => {
    fake.listTools.mockResolvedValue([
      makeTool("echo", { title: "Echo", description: "Echoes back the input" }),
      makeTool("add", { description: null }),
    ]);
    const { view } = renderDetail(connected(2));
    const items = await screen.findAllByTestId("tool-item");
    expect(fake.listTools).toHaveBeenCalledWith(view.config.id);
    expect(items.map((i) => i.dataset.toolName)).toEqual(["echo", "add"]);
    const echo = items[0];
    if (!echo) throw new Error("missing tool");
    expect(echo).toHaveTextContent("Echo");
    expect(echo).toHaveTextContent("Echoes back the input");
    expect(items[1]).toHaveTextContent("No description.");

    const schema = within(echo).getByText("Input schema");
    const details = schema.closest("details");
    expect(details).not.toHaveAttribute("open");
    await userEvent.click(schema);
    expect(details).toHaveAttribute("open");
    expect(within(echo).getByText(/"message": \{/)).toBeInTheDocument();
  });

  it("opens a tool's Call form from its item, for this server", async () => {
    fake.listTools.mockResolvedValue([makeTool("echo")]);
    fake.callTool.mockResolvedValue({
      content: [{ type: "text", text: "Echo: hi" }],
      structuredContent: null,
      isError: false,
      schemaProblem: null,
      cancelled: false,
    });
    const { view } = renderDetail(connected(1));
    const item = await screen.findByTestId("tool-item");
    expect(within(item).queryByTestId("tool-call-panel")).toBeNull();
    await userEvent.click(within(item).getByTestId("tool-call-button"));
    // The form and its library load on first use: allow for a slow machine.
    const panel = await within(item).findByTestId("tool-call-panel", undefined, { timeout: 10_000 });
    await userEvent.type(within(panel).getByRole("textbox"), "hi");
    await userEvent.click(within(panel).getByTestId("tool-call-submit"));
    expect(await within(panel).findByTestId("call-text")).toHaveTextContent("Echo: hi");
    expect(fake.callTool.mock.calls[0]?.[0]).toBe(view.config.id);
  });

  it("shows which era the connection speaks", async () => {
    fake.listTools.mockResolvedValue([]);
    renderDetail(connected(0, "modern"));
    expect(screen.getByTestId("server-era")).toHaveTextContent("modern, stateless");
    expect(await screen.findByText("This server offers no tools.")).toBeInTheDocument();
  });

  it("says the server offers no tools when the list is empty", async () => {
    fake.listTools.mockResolvedValue([]);
    renderDetail(connected(0));
    expect(await screen.findByText("This server offers no tools.")).toBeInTheDocument();
    expect(screen.getByTestId("tool-list")).toBeEmptyDOMElement();
  });

  it("says what a server without tools offers, and does not ask it for tools", async () => {
    renderDetail(connected(0, "modern", ["prompts", "completions"]));
    expect(screen.getByTestId("no-tools")).toHaveTextContent(
      "This server offers no tools. It offers prompts and completions.",
    );
    expect(screen.queryByRole("button", { name: "Refresh tools" })).toBeNull();
    expect(screen.queryByTestId("tool-list")).toBeNull();
    // Let any load the detail might start run before checking none was started.
    await act(() => Promise.resolve());
    expect(fake.listTools).not.toHaveBeenCalled();
  });

  it.each<[ServerStatus, string]>([
    [{ state: "disabled" }, "This server is disabled"],
    [{ state: "connecting" }, "connecting"],
    [{ state: "failed", message: "spawn npx ENOENT" }, "Connection failed: spawn npx ENOENT"],
  ])("explains why tools are unavailable (%o) and offers Reconnect", async (status, text) => {
    const { handlers } = renderDetail(status);
    expect(screen.getByTestId("connection-explanation")).toHaveTextContent(text);
    expect(screen.queryByTestId("tool-list")).toBeNull();
    expect(fake.listTools).not.toHaveBeenCalled();
    await userEvent.click(screen.getByTestId("reconnect-button"));
    expect(handlers.onReconnect).toHaveBeenCalledTimes(1);
  });

  it("shows a crashed server's last stderr lines and offers Start", async () => {
    const { handlers } = renderDetail({
      state: "crashed",
      message: "the server exited with status 2",
      exits: 5,
      lastStderr: ["loading config", "fatal: cannot go on"],
    });
    expect(screen.getByTestId("server-status")).toHaveTextContent("Crashed");
    expect(screen.getByTestId("connection-explanation")).toHaveTextContent("ended 5 times within a minute");
    expect(screen.getByTestId("connection-stderr")).toHaveTextContent("fatal: cannot go on");
    expect(screen.queryByTestId("stop-button")).toBeNull();
    await userEvent.click(screen.getByTestId("start-button"));
    expect(handlers.onStart).toHaveBeenCalledTimes(1);
  });

  it("counts down to a restart and offers Stop meanwhile", async () => {
    const { handlers } = renderDetail({
      state: "restarting",
      attempt: 2,
      inMs: 2000,
      message: "the server exited with status 3",
      lastStderr: ["giving up half-way"],
    });
    expect(screen.getByTestId("server-status")).toHaveTextContent("Restarting in 2 s");
    expect(screen.getByTestId("connection-stderr")).toHaveTextContent("giving up half-way");
    await userEvent.click(screen.getByTestId("stop-button"));
    expect(handlers.onStop).toHaveBeenCalledTimes(1);
  });

  it("keeps listing the tools of a degraded server, says why it is degraded, and offers Stop", async () => {
    fake.listTools.mockResolvedValue([makeTool("echo")]);
    const { handlers } = renderDetail({ state: "degraded", reason: "no answer to ping within 10s", misses: 2 });
    expect(screen.getByTestId("server-status")).toHaveTextContent("Degraded · 2 missed checks");
    expect(screen.getByTestId("connection-explanation")).toHaveTextContent("no answer to ping within 10s");
    const items = await screen.findAllByTestId("tool-item");
    expect(items.map((i) => i.dataset.toolName)).toEqual(["echo"]);
    await userEvent.click(screen.getByTestId("stop-button"));
    expect(handlers.onStop).toHaveBeenCalledTimes(1);
  });

  it("counts down to a reconnection of a lost HTTP server and offers Stop meanwhile", async () => {
    const { handlers } = renderDetail({ state: "reconnecting", attempt: 3, inMs: 4000, message: "HTTP 503" });
    expect(screen.getByTestId("server-status")).toHaveTextContent("Reconnecting in 4 s");
    expect(screen.getByTestId("connection-explanation")).toHaveTextContent("was lost (HTTP 503)");
    await userEvent.click(screen.getByTestId("stop-button"));
    expect(handlers.onStop).toHaveBeenCalledTimes(1);
  });

  it("offers Start for a stopped server", () => {
    renderDetail({ state: "stopped" });
    expect(screen.getByTestId("connection-explanation")).toHaveTextContent("was stopped");
    expect(screen.getByTestId("start-button")).toBeInTheDocument();
    expect(screen.queryByTestId("connection-stderr")).toBeNull();
  });

  it("offers Enable for a disabled server", async () => {
    const { handlers } = renderDetail({ state: "disabled" });
    await userEvent.click(screen.getByRole("button", { name: "Enable" }));
    expect(handlers.onEnable).toHaveBeenCalledTimes(1);
  });

  it("re-fetches tools when a connected event arrives for this server only", async () => {
    fake.listTools.mockResolvedValueOnce([makeTool("one")]).mockResolvedValue([makeTool("one"), makeTool("two")]);
    const { view } = renderDetail(connected(1));
    await screen.findByTestId("tool-item");
    expect(fake.listTools).toHaveBeenCalledTimes(1);

    act(() => fake.emitStatus({ id: "someone-else", status: connected(9) }));
    act(() => fake.emitStatus({ id: view.config.id, status: { state: "connecting" } }));
    expect(fake.listTools).toHaveBeenCalledTimes(1);

    act(() => fake.emitStatus({ id: view.config.id, status: connected(2) }));
    await waitFor(() => expect(screen.getAllByTestId("tool-item")).toHaveLength(2));
    expect(fake.listTools).toHaveBeenCalledTimes(2);
  });

  it("shows an error when tools cannot be listed", async () => {
    fake.listTools.mockRejectedValue(new Error("server went away"));
    renderDetail(connected(1));
    expect(await screen.findByRole("alert")).toHaveTextContent("Could not load tools: server went away");
  });

  it("unsubscribes from status and task events when unmounted", () => {
    const { unmount } = renderDetail(connected(0));
    expect(fake.subscriberCount()).toBe(1);
    expect(fake.tasksSubscriberCount()).toBe(1);
    unmount();
    expect(fake.subscriberCount()).toBe(0);
    expect(fake.tasksSubscriberCount()).toBe(0);
  });

  it.each<[string, ServerStatus]>([
    ["connected", connected(1)],
    ["disabled", { state: "disabled" }],
    ["connecting", { state: "connecting" }],
    ["failed", { state: "failed", message: "spawn npx ENOENT" }],
  ])("lists the task log of a %s server below the tools", async (_state, status) => {
    fake.listTasks.mockImplementation((id) =>
      Promise.resolve([makeTask(id, "slow_sum", { status: "completed", statusMessage: "done" })]),
    );
    const { view } = renderDetail(status);
    const item = await screen.findByTestId("task-item");
    expect(fake.listTasks).toHaveBeenCalledWith(view.config.id);
    expect(item).toHaveTextContent("slow_sum");
    expect(item).toHaveTextContent("Completed");
    const headings = screen.getAllByRole("heading", { level: 3 }).map((h) => h.textContent);
    expect(headings.findIndex((h) => h?.startsWith("Tasks"))).toBe(headings.findIndex((h) => h?.startsWith("Tools")) + 1);
  });

  it("explains the task section when the server has no tasks", async () => {
    renderDetail({ state: "disabled" });
    expect(await screen.findByTestId("tasks-empty")).toHaveTextContent(
      "Tool calls that run as tasks appear here while they run and after they finish.",
    );
  });

  it("follows a task live as its server reports changes", async () => {
    const { view } = renderDetail(connected(1));
    const id = view.config.id;
    const started = makeTask(id, "slow_sum");
    fake.listTasks.mockResolvedValue([started]);
    act(() => fake.emitTasksChanged({ id }));
    expect(await screen.findByTestId("task-status")).toHaveTextContent("Working");

    fake.listTasks.mockResolvedValue([{ ...started, status: "failed", statusMessage: "division by zero" }]);
    act(() => fake.emitTasksChanged({ id: "someone-else" }));
    expect(screen.getByTestId("task-status")).toHaveTextContent("Working");
    act(() => fake.emitTasksChanged({ id }));
    await waitFor(() => expect(screen.getByTestId("task-status")).toHaveTextContent("Failed"));
    expect(screen.getByTestId("task-message")).toHaveTextContent("division by zero");
  });

  it.each<[string, ServerSpec, string]>([
    [
      "stdio",
      { kind: "stdio", command: "npx", args: [], env: [plainEnv("DEBUG", "plain-value"), secretEnv("API_KEY", "sk-leak")], cwd: null },
      "config-secret-env",
    ],
    [
      "http",
      {
        kind: "http",
        url: "https://h/mcp",
        transport: "auto",
        headers: [plainHeader("X-Client", "plain-value"), secretHeader("Authorization", "Bearer sk-leak")],
      },
      "config-secret-headers",
    ],
  ])("shows %s secrets by name with a keyring marker and never renders a value", (_kind, spec, testId) => {
    // Even if a value ever reached the UI, the detail view must not show it.
    renderDetail({ state: "disabled" }, spec);
    const secrets = screen.getByTestId(testId);
    const entries = within(secrets).getAllByTestId("secret-entry");
    expect(entries).toHaveLength(1);
    expect(entries[0]).toHaveTextContent(/^(API_KEY|Authorization) •••• \(in keyring\)$/);
    const detail = screen.getByTestId("server-detail");
    expect(detail.innerHTML).not.toContain("sk-leak");
    expect(detail.innerHTML).not.toContain("plain-value");
  });

  it("names a server's OAuth client but never its secret", () => {
    renderDetail(
      { state: "disabled" },
      {
        kind: "http",
        url: "https://h/mcp",
        transport: "auto",
        headers: [],
        oauth: {
          issuer: "https://auth.example.com",
          clientId: "abc",
          clientSecret: "sk-leak",
          clientMetadataUrl: null,
          grant: "authorizationCode",
          privateKey: null,
        },
      },
    );
    expect(screen.getByTestId("config-oauth")).toHaveTextContent(
      "abc at https://auth.example.com, its secret in the OS keyring",
    );
    expect(screen.getByTestId("server-detail").innerHTML).not.toContain("sk-leak");
  });

  it.each<[string, ServerSpec | undefined]>([
    ["stdio", undefined],
    ["http", { kind: "http", url: "https://h/mcp", transport: "auto", headers: [] }],
  ])("shows the roots of a %s server as plain paths", (_kind, spec) => {
    renderDetail({ state: "disabled" }, spec, ["file:///home/me/project", "file:///home/me/My%20Notes"]);
    const roots = screen.getByTestId("config-roots");
    expect(within(roots).getAllByTestId("root-entry").map((e) => e.textContent)).toEqual([
      "/home/me/project",
      "/home/me/My Notes",
    ]);
    expect(roots).not.toHaveTextContent("file://");
  });

  it("says No roots when the server has none", () => {
    renderDetail({ state: "disabled" });
    expect(screen.getByTestId("config-roots")).toHaveTextContent(/^No roots$/);
    expect(screen.queryByTestId("root-entry")).toBeNull();
  });

  it("lists no secret rows for a server without secrets", () => {
    renderDetail({ state: "disabled" });
    expect(screen.queryByTestId("secret-entry")).toBeNull();
    expect(screen.getByTestId("config-env")).toHaveTextContent("none");
  });
});

describe("ServerDetail tabs", () => {
  it("shows each tab's panel, labelled by its tab, and moves between tabs with the arrow keys", async () => {
    fake.listTools.mockResolvedValue([]);
    fake.serverLogs.mockResolvedValue([]);
    renderDetail(connected(0), { kind: "http", url: "https://h/mcp", transport: "auto", headers: [] });
    const overview = screen.getByRole("tab", { name: "Overview" });
    expect(overview).toHaveAttribute("aria-selected", "true");
    const panel = screen.getByRole("tabpanel");
    expect(panel).toHaveAttribute("aria-labelledby", overview.id);
    expect(within(panel).getByText("Configuration")).toBeInTheDocument();

    await userEvent.click(overview);
    await userEvent.keyboard("{ArrowRight}");
    expect(screen.getByTestId("tab-history")).toHaveFocus();
    await userEvent.keyboard("{ArrowRight}");
    expect(screen.getByTestId("tab-resources")).toHaveAttribute("aria-selected", "true");
    await userEvent.keyboard("{ArrowRight}");
    expect(screen.getByTestId("tab-prompts")).toHaveAttribute("aria-selected", "true");
    await userEvent.keyboard("{ArrowRight}");
    const logs = screen.getByTestId("tab-logs");
    expect(logs).toHaveFocus();
    expect(logs).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tabpanel")).toHaveAttribute("aria-labelledby", logs.id);
    expect(screen.queryByText("Configuration")).toBeNull();

    await userEvent.keyboard("{ArrowRight}");
    expect(screen.getByTestId("tab-traffic")).toHaveAttribute("aria-selected", "true");
    await userEvent.keyboard("{ArrowRight}");
    expect(screen.getByTestId("tab-auth")).toHaveAttribute("aria-selected", "true");
    await userEvent.keyboard("{ArrowRight}");
    expect(overview).toHaveFocus();
    expect(overview).toHaveAttribute("aria-selected", "true");
  });
});
