// The approval dialog over the window: it shows what the engine holds (so a reloaded window
// asks again), sends each kind of answer in the engine's shape, checks edited arguments, keeps
// the request open when the engine refuses an answer, and the badge counts what waits.

import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { PendingApproval, Question } from "../../api/gatehouse";
import { GatehouseError } from "../../api/GatehouseError";
import { AppFrame } from "../../App";
import * as fake from "../../test/fakeGatehouse";
import { renderWithClient } from "../../test/renderWithClient";

vi.mock("../../api/gatehouse", () => import("../../test/fakeGatehouse"));

beforeEach(() => fake.resetFakeGatehouse());

function pending(question: Question, id = "p-1"): PendingApproval {
  return {
    id,
    server: "fs",
    serverId: "s-1",
    source: "app",
    reason: "rule r-1 says ask",
    rule: "r-1",
    askedAtMs: Date.now(),
    expiresAtMs: Date.now() + 300_000,
    question,
  };
}

const writeFile: Question = {
  kind: "toolCall",
  tool: "write_file",
  title: "Write a file",
  description: "Writes text to a path",
  annotations: { destructiveHint: true },
  arguments: { path: "/tmp/a", text: "hi" },
  inputSchema: { type: "object", required: ["path"], properties: { path: { type: "string" }, text: { type: "string" } } },
  definitionHash: "h",
  changes: [{ field: "description", before: "Reads a file", after: "Writes text to a path" }],
};

async function openWith(question: Question) {
  fake.listApprovals.mockResolvedValue([pending(question)]);
  renderWithClient(<AppFrame />, "/servers");
  return screen.findByTestId("approval-dialog");
}

describe("ApprovalDialog", () => {
  it("shows a waiting tool call from the engine, with its hints, changes and arguments, and the badge", async () => {
    const dialog = await openWith(writeFile);
    expect(within(dialog).getByTestId("approval-tool")).toHaveTextContent("write_file");
    expect(within(dialog).getByText("destructive")).toBeInTheDocument();
    expect(within(dialog).getByTestId("approval-reason")).toHaveTextContent("rule r-1 says ask");
    expect(within(dialog).getByTestId("definition-changes")).toHaveTextContent("Reads a file");
    expect(within(dialog).getByTestId("approval-arguments")).toHaveTextContent("/tmp/a");
    expect(screen.getByTestId("nav-badge")).toHaveTextContent("1");
  });

  it("allows once with edited arguments, which must match the inputSchema first", async () => {
    const dialog = await openWith(writeFile);
    await userEvent.click(within(dialog).getByTestId("edit-arguments"));
    const editor = within(dialog).getByTestId("arguments-editor");
    await userEvent.clear(editor);
    await userEvent.click(editor);
    await userEvent.paste('{"text": 3}');
    expect(within(dialog).getByTestId("arguments-problems")).toHaveTextContent("path");
    expect(within(dialog).getByTestId("allow-once")).toBeDisabled();
    await userEvent.clear(editor);
    await userEvent.paste('{"path": "/tmp/b"}');
    await userEvent.click(within(dialog).getByTestId("allow-once"));
    expect(fake.answerApproval).toHaveBeenCalledWith("p-1", { kind: "allow", scope: { kind: "once" }, arguments: { path: "/tmp/b" } });
  });

  it("answers for a time, always, and deny with a reason, also from the keyboard", async () => {
    const dialog = await openWith(writeFile);
    await userEvent.selectOptions(within(dialog).getByTestId("allow-for-minutes"), "60");
    await userEvent.click(within(dialog).getByTestId("allow-for"));
    expect(fake.answerApproval).toHaveBeenLastCalledWith("p-1", { kind: "allow", scope: { kind: "for", minutes: 60 }, arguments: null });
    await userEvent.click(within(dialog).getByTestId("allow-always"));
    expect(fake.answerApproval).toHaveBeenLastCalledWith("p-1", { kind: "allow", scope: { kind: "always" }, arguments: null });
    await userEvent.type(within(dialog).getByTestId("deny-reason"), "not now");
    await userEvent.click(within(dialog).getByTestId("deny"));
    expect(fake.answerApproval).toHaveBeenLastCalledWith("p-1", { kind: "deny", reason: "not now" });
    within(dialog).getByTestId("allow-once").focus();
    await userEvent.keyboard("s");
    expect(fake.answerApproval).toHaveBeenLastCalledWith("p-1", { kind: "allow", scope: { kind: "session" }, arguments: null });
  });

  it("keeps the request open and says why when the engine refuses the answer", async () => {
    fake.answerApproval.mockRejectedValue(new GatehouseError("validation", "the edited arguments do not match"));
    const dialog = await openWith(writeFile);
    await userEvent.click(within(dialog).getByTestId("allow-once"));
    expect(await within(dialog).findByTestId("approval-error")).toHaveTextContent("do not match");
    expect(screen.getByTestId("approval-dialog")).toBeInTheDocument();
  });

  it("takes a written reply to a sampling request", async () => {
    const dialog = await openWith({
      kind: "sampling",
      params: { systemPrompt: "Be brief", maxTokens: 10, messages: [{ role: "user", content: { type: "text", text: "Say hi" } }] },
    });
    expect(within(dialog).getByTestId("sampling-messages")).toHaveTextContent("Say hi");
    expect(within(dialog).getByText("Be brief")).toBeInTheDocument();
    expect(within(dialog).getByTestId("sampling-send")).toBeDisabled();
    await userEvent.type(within(dialog).getByTestId("sampling-reply"), "hello");
    await userEvent.click(within(dialog).getByTestId("sampling-send"));
    expect(fake.answerApproval).toHaveBeenCalledWith("p-1", { kind: "respond", text: "hello" });
  });

  it("fills in an elicitation form from its schema", async () => {
    const dialog = await openWith({
      kind: "elicitation",
      message: "Who are you?",
      requestedSchema: { type: "object", required: ["name"], properties: { name: { type: "string", title: "Name" }, age: { type: "integer", title: "Age", default: 36 } } },
    });
    await userEvent.type(within(dialog).getByLabelText(/Name/), "Ada");
    await userEvent.click(within(dialog).getByTestId("elicitation-accept"));
    expect(fake.answerApproval).toHaveBeenCalledWith("p-1", { kind: "accept", content: { name: "Ada", age: 36 } });
    await userEvent.click(within(dialog).getByTestId("elicitation-cancel"));
    expect(fake.answerApproval).toHaveBeenLastCalledWith("p-1", { kind: "cancel" });
  });

  it("shows a URL's site and opens it only after consent", async () => {
    const dialog = await openWith({
      kind: "openUrl",
      message: "Sign in",
      url: "http://bank.example@evil.test/login",
      domain: "evil.test",
      warnings: ["it is not https"],
    });
    expect(within(dialog).getByTestId("approval-domain")).toHaveTextContent("evil.test");
    expect(within(dialog).getByTestId("approval-warnings")).toHaveTextContent("not https");
    expect(fake.openExternalUrl).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByTestId("open-url"));
    expect(fake.answerApproval).toHaveBeenCalledWith("p-1", { kind: "accept", content: null });
    await waitFor(() => expect(fake.openExternalUrl).toHaveBeenCalledWith("http://bank.example@evil.test/login"));
  });

  it("sets a request aside until it is chosen again on the Approvals page, and follows engine events", async () => {
    const dialog = await openWith(writeFile);
    await userEvent.click(within(dialog).getByTestId("approval-later"));
    await waitFor(() => expect(screen.queryByTestId("approval-dialog")).not.toBeInTheDocument());
    await userEvent.click(screen.getByTestId("nav-approvals"));
    await userEvent.click(await screen.findByTestId("answer-approval"));
    expect(await screen.findByTestId("approval-dialog")).toBeInTheDocument();

    // Answered elsewhere (the CLI, a timeout): the engine says so, and the dialog goes.
    fake.listApprovals.mockResolvedValue([]);
    act(() => fake.emitApprovalsChanged({ pending: 0 }));
    await waitFor(() => expect(screen.queryByTestId("approval-dialog")).not.toBeInTheDocument());
    expect(screen.queryByTestId("nav-badge")).not.toBeInTheDocument();
    expect(await screen.findByTestId("no-approvals")).toBeInTheDocument();
  });
});
