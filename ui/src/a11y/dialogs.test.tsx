// The window's dialogs and sheets checked with axe-core like the pages (checkNames.ts): a
// waiting tool call's approval, the Import step, a policy rule, an audit row's detail and the
// chain's check, and a gateway client's profile.

import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { PendingApproval } from "../api/gatehouse";
import { AppFrame } from "../App";
import { auditRow, chainReport } from "../test/auditFixtures";
import { openClient, setUpClients } from "../test/clientFixtures";
import * as fake from "../test/fakeGatehouse";
import { giveElementsASize, renderWithClient } from "../test/renderWithClient";
import { nameViolations } from "./checkNames";

vi.mock("../api/gatehouse", () => import("../test/fakeGatehouse"));

beforeEach(() => {
  setUpClients();
});

const expectNamed = async () => expect(await nameViolations()).toEqual([]);

const approval: PendingApproval = {
  id: "p-1",
  server: "fs",
  serverId: "s-1",
  source: "app",
  caller: "view 0f3a",
  reason: "rule r-1 says ask",
  rule: "r-1",
  askedAtMs: Date.now(),
  expiresAtMs: Date.now() + 300_000,
  question: {
    kind: "toolCall",
    tool: "write_file",
    title: "Write a file",
    description: "Writes text to a path",
    annotations: { destructiveHint: true },
    arguments: { path: "/tmp/a", text: "hi" },
    inputSchema: { type: "object", required: ["path"], properties: { path: { type: "string" }, text: { type: "string" } } },
    definitionHash: "h",
    changes: [{ field: "description", before: "Reads a file", after: "Writes text to a path" }],
    defaultCovers: "these",
    alwaysOffered: true,
  },
};

describe("accessible names in dialogs", () => {
  it("the approval dialog of a waiting tool call", async () => {
    fake.listApprovals.mockResolvedValue([approval]);
    renderWithClient(<AppFrame />, "/servers");
    await screen.findByTestId("approval-dialog");
    await expectNamed();
  });

  it("the Import step", async () => {
    renderWithClient(<AppFrame />, "/servers");
    await userEvent.click(await screen.findByTestId("import-button"));
    await screen.findByRole("dialog");
    await expectNamed();
  });

  it("the policy rule dialog", async () => {
    renderWithClient(<AppFrame />, "/policies");
    await userEvent.click(await screen.findByTestId("add-rule"));
    await screen.findByRole("dialog", { name: "Add rule" });
    await expectNamed();
  });

  it("an audit row's detail and the chain's check", async () => {
    const restore = giveElementsASize();
    try {
      fake.auditList.mockResolvedValue([auditRow(1), auditRow(2)]);
      fake.auditVerify.mockResolvedValue(chainReport(2));
      renderWithClient(<AppFrame />, "/audit");
      const rows = await screen.findAllByTestId("audit-row");
      await userEvent.click(screen.getByTestId("verify-chain"));
      await screen.findByTestId("verify-result");
      await userEvent.click(rows[0]!);
      await screen.findByTestId("audit-detail");
      await expectNamed();
    } finally {
      restore();
    }
  });

  it("a gateway client's profile", async () => {
    renderWithClient(<AppFrame />, "/clients");
    await openClient("claude");
    await expectNamed();
  });
});
