// Tests for the Connect step: the preview shows the diff of the agent's file with its lines
// marked, the entries taken out and kept and the plaintext secrets left; the write applies the
// previewed plan by its id and says which client the agent now is; an undo refused because the
// file changed since is offered again as "Undo anyway", which forces it.

import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ConnectPlan } from "../../api/gatehouse";
import { GatehouseError } from "../../api/GatehouseError";
import * as fake from "../../test/fakeGatehouse";
import { renderWithClient } from "../../test/renderWithClient";
import { ConnectDialog } from "./ConnectDialog";

vi.mock("../../api/gatehouse", () => import("../../test/fakeGatehouse"));

const FILE = "/home/me/.cursor/mcp.json";

const DIFF = [
  `--- ${FILE}`,
  `+++ ${FILE}`,
  "@@ -1,6 +1,6 @@",
  " {",
  '   "mcpServers": {',
  '-    "everything": { "command": "node", "env": { "KEY": "********" } },',
  '+    "gatehouse": { "command": "/usr/bin/gatehouse", "args": ["mcp", "--client", "cursor"] },',
  '     "docs": { "url": "https://docs.example.com/mcp" }',
  "   }",
  " }",
  "",
].join("\n");

function plan(extra: Partial<ConnectPlan> = {}): ConnectPlan {
  return { file: FILE, section: null, diff: DIFF, removed: ["everything"], replaced: [], kept: ["docs"], plaintextSecretsLeft: [], ...extra };
}

beforeEach(() => {
  fake.resetFakeGatehouse();
  fake.agentsFound.mockResolvedValue([
    { agent: "cursor", title: "Cursor", files: [FILE], servers: 2, throughGatehouse: 0 },
    { agent: "registry", title: "MCP registry server.json", files: ["/p/server.json"], servers: 1, throughGatehouse: 0 },
  ]);
});

describe("ConnectDialog", () => {
  it("previews the diff of the agent's file, then writes the previewed change", async () => {
    fake.connectPreview.mockResolvedValue({ id: "c1", plan: plan({ plaintextSecretsLeft: [{ server: "docs", name: "X-API-Key" }] }) });
    fake.connectApply.mockResolvedValue({ backup: "/data/agent-backups/cursor-1.orig", clientAdded: true, client: "cursor", servers: ["everything"] });
    const onChanged = vi.fn();
    renderWithClient(<ConnectDialog onClose={vi.fn()} onChanged={onChanged} />);
    const select = await screen.findByTestId("connect-agent-select");
    expect(select).toHaveTextContent("Cursor");
    expect(select).not.toHaveTextContent("registry");

    await userEvent.click(screen.getByTestId("connect-preview-button"));
    const diff = await screen.findByTestId("connect-diff");
    expect(fake.connectPreview).toHaveBeenCalledWith("cursor", null);
    expect(diff.querySelector(".diff-removed")).toHaveTextContent('"everything"');
    expect(diff.querySelector(".diff-added")).toHaveTextContent("--client");
    expect(screen.getByTestId("connect-plan")).toHaveTextContent("Taken out (imported into Gatehouse): everything");
    expect(screen.getByTestId("connect-secrets-left")).toHaveTextContent("docs (X-API-Key)");

    await userEvent.click(screen.getByTestId("connect-write-button"));
    expect(await screen.findByTestId("connect-done")).toHaveTextContent("Cursor now reaches Gatehouse as the client cursor (added), with everything");
    expect(screen.getByTestId("connect-done")).toHaveTextContent("/data/agent-backups/cursor-1.orig");
    expect(fake.connectApply).toHaveBeenCalledWith("c1");
    expect(onChanged).toHaveBeenCalled();
  });

  it("says when the file already reaches Gatehouse, and writes nothing", async () => {
    fake.connectPreview.mockResolvedValue({ id: "c1", plan: plan({ diff: "", removed: [] }) });
    renderWithClient(<ConnectDialog onClose={vi.fn()} onChanged={vi.fn()} />);
    await userEvent.click(await screen.findByTestId("connect-preview-button"));
    expect(await screen.findByTestId("connect-unchanged")).toHaveTextContent("Cursor already reaches Gatehouse");
    expect(screen.getByTestId("connect-write-button")).toBeDisabled();
  });

  it("offers to undo anyway when the file changed after the connect", async () => {
    fake.connectUndo.mockRejectedValueOnce(new GatehouseError("validation", `${FILE} changed after the connect; --force restores it anyway`));
    fake.connectUndo.mockResolvedValueOnce({ file: FILE, backup: "/b", connectedAt: "2026-11-27T10:00:00Z", forced: true });
    renderWithClient(<ConnectDialog onClose={vi.fn()} onChanged={vi.fn()} />);
    await userEvent.click(await screen.findByTestId("connect-undo-button"));
    expect(await screen.findByTestId("connect-error")).toHaveTextContent("changed after the connect");
    expect(screen.getByTestId("connect-undo-button")).toHaveTextContent("Undo anyway");
    await userEvent.click(screen.getByTestId("connect-undo-button"));
    await waitFor(() => expect(fake.connectUndo).toHaveBeenLastCalledWith("cursor", null, true));
    expect(await screen.findByTestId("connect-undone")).toHaveTextContent("its later changes are gone");
  });
});
