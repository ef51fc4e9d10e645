// The approval dialog over the window: it shows what the engine holds (so a reloaded window
// asks again), sends each kind of answer in the engine's shape, checks edited arguments, keeps
// the request open when the engine refuses an answer, and the badge counts what waits. It
// cannot be answered by accident: the focus is on the dialog, not on an answer; keys and clicks
// count only once it is armed (on a clock the tests move: vitest's fake Date); keys in a text
// field are typing. A grant covers these arguments or any, as the person chooses.

import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PendingApproval, Question } from "../../api/gatehouse";
import { GatehouseError } from "../../api/GatehouseError";
import { AppFrame } from "../../App";
import { ARMING_DELAY_MS } from "../../hooks/useArming";
import * as fake from "../../test/fakeGatehouse";
import { renderWithClient } from "../../test/renderWithClient";

vi.mock("../../api/gatehouse", () => import("../../test/fakeGatehouse"));

beforeEach(() => {
  fake.resetFakeGatehouse();
  vi.useFakeTimers({ toFake: ["Date"] });
});

afterEach(() => vi.useRealTimers());

/** Moves the clock on by `ms` (by default, past the arming delay). */
function wait(ms = ARMING_DELAY_MS) {
  vi.setSystemTime(Date.now() + ms);
}

function pending(question: Question, id = "p-1", caller: string | null = "view 0f3a"): PendingApproval {
  return {
    id,
    server: "fs",
    serverId: "s-1",
    source: "app",
    caller,
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
  defaultCovers: "these",
  alwaysOffered: true,
};

/** Opens the window with `question` waiting; armed unless told otherwise. */
async function openWith(question: Question, armed = true) {
  fake.listApprovals.mockResolvedValue([pending(question)]);
  renderWithClient(<AppFrame />, "/servers");
  const dialog = await screen.findByTestId("approval-dialog");
  if (armed) wait();
  return dialog;
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
    // An app view's own token is not a name a person knows.
    expect(within(dialog).queryByTestId("approval-through")).toBeNull();
  });

  it("names the face a person's request came through: the CLI attached to the engine", async () => {
    fake.listApprovals.mockResolvedValue([{ ...pending(writeFile, "p-cli", "cli"), source: "user" }]);
    renderWithClient(<AppFrame />, "/servers");
    const dialog = await screen.findByTestId("approval-dialog");
    expect(within(dialog).getByTestId("approval-through")).toHaveTextContent("through the gatehouse CLI");
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
    expect(fake.answerApproval).toHaveBeenCalledWith("p-1", { kind: "allow", scope: { kind: "once" }, arguments: { path: "/tmp/b" }, covers: null });
  });

  it("answers for a time, always, and deny with a reason, also from the keyboard", async () => {
    const dialog = await openWith(writeFile);
    await userEvent.selectOptions(within(dialog).getByTestId("allow-for-minutes"), "60");
    await userEvent.click(within(dialog).getByTestId("allow-for"));
    expect(fake.answerApproval).toHaveBeenLastCalledWith("p-1", { kind: "allow", scope: { kind: "for", minutes: 60 }, arguments: null, covers: "these" });
    await userEvent.click(within(dialog).getByTestId("allow-always"));
    expect(fake.answerApproval).toHaveBeenLastCalledWith("p-1", { kind: "allow", scope: { kind: "always" }, arguments: null, covers: null });
    await userEvent.type(within(dialog).getByTestId("deny-reason"), "not now");
    await userEvent.click(within(dialog).getByTestId("deny"));
    expect(fake.answerApproval).toHaveBeenLastCalledWith("p-1", { kind: "deny", reason: "not now" });
    within(dialog).getByTestId("allow-once").focus();
    await userEvent.keyboard("s");
    expect(fake.answerApproval).toHaveBeenLastCalledWith("p-1", { kind: "allow", scope: { kind: "session" }, arguments: null, covers: "these" });
  });

  it("puts the focus on the dialog itself, never on an answer", async () => {
    const dialog = await openWith(writeFile, false);
    await waitFor(() => expect(document.activeElement).toBe(dialog));
    for (const id of ["allow-once", "allow-session", "allow-for", "allow-always", "deny"]) {
      expect(within(dialog).getByTestId(id)).not.toHaveFocus();
    }
  });

  it("ignores keys and clicks until it is armed, and takes them after", async () => {
    const dialog = await openWith(writeFile, false);
    await userEvent.keyboard("w");
    await userEvent.click(within(dialog).getByTestId("allow-once"));
    await userEvent.click(within(dialog).getByTestId("deny"));
    expect(fake.answerApproval).not.toHaveBeenCalled();
    wait(ARMING_DELAY_MS - 1);
    await userEvent.click(within(dialog).getByTestId("allow-session"));
    expect(fake.answerApproval).not.toHaveBeenCalled();
    wait(1);
    await userEvent.click(within(dialog).getByTestId("allow-once"));
    expect(fake.answerApproval).toHaveBeenLastCalledWith("p-1", { kind: "allow", scope: { kind: "once" }, arguments: null, covers: null });
  });

  it("stays disarmed while someone keeps typing, and arms a moment after they stop", async () => {
    const dialog = await openWith(writeFile, false);
    dialog.focus();
    for (let i = 0; i < 10; i++) {
      await userEvent.keyboard("w");
      wait(ARMING_DELAY_MS / 2);
    }
    expect(fake.answerApproval).not.toHaveBeenCalled();
    wait(ARMING_DELAY_MS / 2);
    await userEvent.keyboard("a");
    expect(fake.answerApproval).toHaveBeenLastCalledWith("p-1", { kind: "allow", scope: { kind: "once" }, arguments: null, covers: null });
  });

  it("is disarmed again for a new request", async () => {
    const dialog = await openWith(writeFile);
    expect(dialog.querySelector("[data-approval-id]")).toHaveAttribute("data-approval-id", "p-1");
    fake.listApprovals.mockResolvedValue([pending(writeFile, "p-2")]);
    act(() => fake.emitApprovalsChanged({ pending: 1 }));
    const next = await waitFor(() => {
      const shown = screen.getByTestId("approval-dialog").querySelector("[data-approval-id]");
      expect(shown).toHaveAttribute("data-approval-id", "p-2");
      return screen.getByTestId("approval-dialog");
    });
    await userEvent.keyboard("a");
    await userEvent.click(within(next).getByTestId("allow-once"));
    expect(fake.answerApproval).not.toHaveBeenCalled();
    wait();
    await userEvent.click(within(next).getByTestId("allow-once"));
    expect(fake.answerApproval).toHaveBeenLastCalledWith("p-2", { kind: "allow", scope: { kind: "once" }, arguments: null, covers: null });
  });

  it("takes keys typed in a text field as typing, never as answers", async () => {
    const dialog = await openWith(writeFile);
    await userEvent.type(within(dialog).getByTestId("deny-reason"), "wasd");
    await userEvent.click(within(dialog).getByTestId("edit-arguments"));
    await userEvent.type(within(dialog).getByTestId("arguments-editor"), " wasd");
    expect(fake.answerApproval).not.toHaveBeenCalled();
    expect(within(dialog).getByTestId("deny-reason")).toHaveValue("wasd");
  });

  it("lets the person choose what a grant covers, these arguments by default for an app", async () => {
    const dialog = await openWith(writeFile);
    expect(within(dialog).getByTestId("covers-these")).toBeChecked();
    await userEvent.click(within(dialog).getByTestId("allow-session"));
    expect(fake.answerApproval).toHaveBeenLastCalledWith("p-1", { kind: "allow", scope: { kind: "session" }, arguments: null, covers: "these" });
    await userEvent.click(within(dialog).getByTestId("covers-any"));
    await userEvent.click(within(dialog).getByTestId("allow-session"));
    expect(fake.answerApproval).toHaveBeenLastCalledWith("p-1", { kind: "allow", scope: { kind: "session" }, arguments: null, covers: "any" });
    expect(within(dialog).getByTestId("allow-always")).toHaveTextContent("any arguments, calls from apps");
  });

  it("does not offer always where a rule for the tool or its arguments asks", async () => {
    const dialog = await openWith({ ...writeFile, alwaysOffered: false });
    expect(within(dialog).queryByTestId("allow-always")).toBeNull();
    expect(within(dialog).getByTestId("no-always")).toHaveTextContent("Policies page");
    dialog.focus();
    await userEvent.keyboard("w");
    expect(fake.answerApproval).not.toHaveBeenCalled();
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
