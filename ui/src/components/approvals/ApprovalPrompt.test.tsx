// Which waiting request the window puts first: the oldest, unless the person chose one in the
// tray or on a notification, before the window opened (taken once when it starts) or while it
// was open (an event).

import { act, screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { PendingApproval } from "../../api/gatehouse";
import * as fake from "../../test/fakeGatehouse";
import { renderWithClient } from "../../test/renderWithClient";
import { ApprovalPrompt } from "./ApprovalPrompt";
import { ApprovalPromptProvider } from "./ApprovalPromptContext";

vi.mock("../../api/gatehouse", () => import("../../test/fakeGatehouse"));

beforeEach(() => fake.resetFakeGatehouse());

function asking(id: string, tool: string): PendingApproval {
  return {
    id,
    server: "fs",
    serverId: "s-1",
    source: "gateway",
    caller: "claude-code",
    reason: "rule r-1 says ask",
    rule: "r-1",
    askedAtMs: Date.now(),
    expiresAtMs: Date.now() + 300_000,
    question: {
      kind: "toolCall",
      tool,
      title: null,
      description: null,
      annotations: {},
      arguments: {},
      inputSchema: { type: "object" },
      definitionHash: "h",
      changes: [],
      defaultCovers: "these",
      alwaysOffered: true,
    },
  };
}

function renderPrompt() {
  renderWithClient(
    <ApprovalPromptProvider>
      <ApprovalPrompt />
    </ApprovalPromptProvider>,
  );
}

const toolShown = () => screen.findByTestId("approval-tool");

describe("ApprovalPrompt", () => {
  it("puts the oldest waiting request first", async () => {
    fake.listApprovals.mockResolvedValue([asking("a-1", "read_file"), asking("a-2", "write_file")]);
    renderPrompt();
    expect(await toolShown()).toHaveTextContent("read_file");
  });

  it("puts first the request chosen in the tray before the window opened", async () => {
    fake.listApprovals.mockResolvedValue([asking("a-1", "read_file"), asking("a-2", "write_file")]);
    fake.takeChosenApproval.mockResolvedValue("a-2");
    renderPrompt();
    await waitFor(async () => expect(await toolShown()).toHaveTextContent("write_file"));
    expect(fake.takeChosenApproval).toHaveBeenCalledTimes(1);
  });

  it("switches to a request chosen while the window is open", async () => {
    fake.listApprovals.mockResolvedValue([asking("a-1", "read_file"), asking("a-2", "write_file")]);
    renderPrompt();
    expect(await toolShown()).toHaveTextContent("read_file");
    act(() => fake.emitApprovalChosen({ id: "a-2" }));
    await waitFor(async () => expect(await toolShown()).toHaveTextContent("write_file"));
  });
});
