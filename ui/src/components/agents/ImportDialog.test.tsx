// Tests for the Import step: the agents found are offered, the preview shows every server with
// its secrets masked and marked for the keyring and the entries left out, a clash blocks the
// import until a choice is made (which previews again), and the import applies the previewed
// plan by its id and says what to do next.

import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ImportPlan, PlannedServer } from "../../api/gatehouse";
import { GatehouseError } from "../../api/GatehouseError";
import * as fake from "../../test/fakeGatehouse";
import { renderWithClient } from "../../test/renderWithClient";
import { ImportDialog } from "./ImportDialog";

vi.mock("../../api/gatehouse", () => import("../../test/fakeGatehouse"));

const FILE = "/home/me/.config/Claude/claude_desktop_config.json";

function planned(entry: string, extra: Partial<PlannedServer> = {}): PlannedServer {
  return {
    file: FILE,
    section: null,
    entry,
    name: entry,
    action: { kind: "add" },
    kind: "stdio",
    enabled: true,
    command: "npx",
    args: ["-y", `@modelcontextprotocol/server-${entry}`],
    env: [],
    secrets: [],
    references: [],
    warnings: [],
    ...extra,
  };
}

function plan(servers: PlannedServer[]): ImportPlan {
  return {
    agent: "claude-desktop",
    files: [{ path: FILE, section: null, scope: "user", digest: "ab", error: null }],
    servers,
    skipped: [{ file: FILE, entry: "ws", reason: "its transport `websocket` is not one Gatehouse speaks" }],
    inputs: [],
  };
}

const slack = planned("slack", {
  env: [
    { name: "SLACK_BOT_TOKEN", value: "xox…(44 characters)", secret: true },
    { name: "SLACK_TEAM_ID", value: "T01234567", secret: false },
  ],
  secrets: [{ kind: "env", name: "SLACK_BOT_TOKEN", masked: "xox…(44 characters)", reason: "token-prefix", from: "env" }],
});

beforeEach(() => {
  fake.resetFakeGatehouse();
  fake.agentsFound.mockResolvedValue([
    { agent: "claude-desktop", title: "Claude Desktop", files: [FILE], servers: 3, throughGatehouse: 0 },
    { agent: "cursor", title: "Cursor", files: ["/home/me/.cursor/mcp.json"], servers: 1, throughGatehouse: 1 },
  ]);
});

describe("ImportDialog", () => {
  it("previews an agent's servers with secrets masked, then imports the previewed plan", async () => {
    fake.importPreview.mockResolvedValue({ id: "p1", plan: plan([slack, planned("filesystem")]) });
    fake.importApply.mockResolvedValue([
      { name: "slack", entry: "slack", serverId: "s1", replaced: false, secrets: 1 },
      { name: "filesystem", entry: "filesystem", serverId: "s2", replaced: false, secrets: 0 },
    ]);
    const onImported = vi.fn();
    renderWithClient(<ImportDialog onClose={vi.fn()} onImported={onImported} />);
    const select = await screen.findByTestId("import-agent-select");
    expect(select).toHaveTextContent("Claude Desktop: 3 servers");
    expect(select).toHaveTextContent("Cursor: 1 server (already connected)");
    expect(screen.getByTestId("import-confirm-button")).toBeDisabled();

    await userEvent.click(screen.getByTestId("import-preview-button"));
    const item = await screen.findByTestId("import-server-slack");
    expect(fake.importPreview).toHaveBeenCalledWith("claude-desktop", null, { onClash: null, skip: [], inputs: [] });
    expect(item).toHaveTextContent("SLACK_BOT_TOKEN=xox…(44 characters)");
    expect(within(item).getByText("to the keyring")).toBeInTheDocument();
    expect(item).toHaveTextContent("SLACK_TEAM_ID=T01234567");
    expect(screen.getByTestId("import-plan")).toHaveTextContent("2 servers to import, 1 value to the keyring");
    expect(screen.getByTestId("import-plan")).toHaveTextContent("ws: its transport `websocket` is not one Gatehouse speaks");

    await userEvent.click(screen.getByTestId("import-confirm-button"));
    expect(await screen.findByTestId("import-done")).toHaveTextContent("2 servers imported from Claude Desktop");
    expect(screen.getByTestId("import-done")).toHaveTextContent("gatehouse connect claude-desktop");
    expect(fake.importApply).toHaveBeenCalledWith("p1");
    expect(onImported).toHaveBeenCalled();
  });

  it("blocks the import while a clash is unresolved and previews again with the choice", async () => {
    const clash = planned("slack", { action: { kind: "unresolved", clashesWith: "slack" } });
    fake.importPreview.mockResolvedValueOnce({ id: "p1", plan: plan([clash]) });
    fake.importPreview.mockResolvedValueOnce({ id: "p2", plan: plan([{ ...clash, name: "slack-claude-desktop", action: { kind: "add" } }]) });
    renderWithClient(<ImportDialog onClose={vi.fn()} onImported={vi.fn()} />);
    await userEvent.click(await screen.findByTestId("import-preview-button"));
    expect(await screen.findByTestId("import-server-slack")).toHaveTextContent("Clashes with slack");
    expect(screen.getByTestId("import-confirm-button")).toBeDisabled();

    await userEvent.selectOptions(screen.getByTestId("import-clash-select"), "rename");
    await waitFor(() => expect(fake.importPreview).toHaveBeenLastCalledWith("claude-desktop", null, { onClash: "rename", skip: [], inputs: [] }));
    expect(await screen.findByTestId("import-server-slack")).toHaveTextContent("slack-claude-desktop");
    expect(screen.getByTestId("import-confirm-button")).toBeEnabled();
  });

  it("asks for the values of the agent's inputs and previews again with them", async () => {
    const asked = { id: "perplexity-key", description: "Perplexity API Key", password: true, given: false };
    const needing = { ...plan([]), inputs: [asked] };
    fake.importPreview.mockResolvedValueOnce({ id: "p1", plan: needing });
    fake.importPreview.mockResolvedValueOnce({ id: "p2", plan: { ...plan([slack]), inputs: [{ ...asked, given: true }] } });
    renderWithClient(<ImportDialog onClose={vi.fn()} onImported={vi.fn()} />);
    await userEvent.click(await screen.findByTestId("import-preview-button"));
    const field = await screen.findByTestId("import-input-perplexity-key");
    expect(field).toHaveAttribute("type", "password");
    expect(screen.getByTestId("import-inputs")).toHaveTextContent("Perplexity API Key");
    await userEvent.type(field, "pplx-typed");
    await userEvent.click(screen.getByTestId("import-preview-button"));
    await waitFor(() =>
      expect(fake.importPreview).toHaveBeenLastCalledWith("claude-desktop", null, {
        onClash: null,
        skip: [],
        inputs: [{ id: "perplexity-key", value: "pplx-typed" }],
      }),
    );
    expect(await screen.findByTestId("import-server-slack")).toBeInTheDocument();
  });

  it("shows why an import was refused and keeps the dialog open", async () => {
    fake.importPreview.mockResolvedValue({ id: "p1", plan: plan([slack]) });
    fake.importApply.mockRejectedValue(new GatehouseError("validation", "claude_desktop_config.json changed since the preview; nothing was imported"));
    renderWithClient(<ImportDialog onClose={vi.fn()} onImported={vi.fn()} />);
    await userEvent.click(await screen.findByTestId("import-preview-button"));
    await userEvent.click(await screen.findByTestId("import-confirm-button"));
    expect(await screen.findByTestId("import-error")).toHaveTextContent("changed since the preview");
    expect(screen.queryByTestId("import-done")).toBeNull();
  });

  it("says when no agent's configuration is found", async () => {
    fake.agentsFound.mockResolvedValue([]);
    renderWithClient(<ImportDialog onClose={vi.fn()} onImported={vi.fn()} />);
    expect(await screen.findByTestId("import-no-agents")).toHaveTextContent("No agent's MCP configuration was found on this machine");
  });
});
