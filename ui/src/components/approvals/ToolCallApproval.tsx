// A tool call waiting for the person: the tool (title, description), the server's hints as
// badges (never trusted), what changed since a rule allowed it, and the arguments, highlighted
// and editable (edits are checked against the tool's inputSchema here and again by the
// engine). Answers: allow once, for this session, for a time, always, or deny with a reason;
// keyboard: A, S, T, W, D when no field has the focus.

import { useMemo, useState } from "react";
import type { KeyboardEvent } from "react";
import type { Question, Scope } from "../../api/gatehouse";
import type { Value } from "../../bindings";
import { annotationHints } from "../../model/describeApproval";
import { argumentProblems } from "../../model/argumentProblems";
import { JsonView } from "../JsonView";
import type { AnswerProps } from "./ApprovalDialog";
import { DefinitionChanges } from "./DefinitionChanges";
import { DenyWithReason, denial } from "./DenyWithReason";

type ToolCallQuestion = Extract<Question, { kind: "toolCall" }>;

const DURATIONS: readonly (readonly [number, string])[] = [
  [10, "10 minutes"],
  [60, "1 hour"],
  [8 * 60, "8 hours"],
  [24 * 60, "1 day"],
];

export function ToolCallApproval({ question, answer, busy }: { question: ToolCallQuestion } & AnswerProps) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(() => JSON.stringify(question.arguments ?? {}, null, 2));
  const [minutes, setMinutes] = useState(10);
  const [reason, setReason] = useState("");
  const hints = annotationHints(question.annotations);

  const edited = useMemo((): { value: Value | null; problems: string[] } => {
    if (!editing) return { value: null, problems: [] };
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      return { value: null, problems: [`not JSON: ${e instanceof Error ? e.message : String(e)}`] };
    }
    return { value: value as Value, problems: argumentProblems(question.inputSchema, value) };
  }, [editing, text, question.inputSchema]);
  const blocked = busy || edited.problems.length > 0;

  const allow = (scope: Scope) =>
    void answer({ kind: "allow", scope, arguments: editing ? edited.value : null });
  const deny = () => void answer(denial(reason));

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const target = e.target as HTMLElement;
    if (["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName) || e.ctrlKey || e.metaKey || e.altKey) return;
    const key = e.key.toLowerCase();
    if (key === "d") {
      e.preventDefault();
      if (!busy) deny();
      return;
    }
    if (blocked) return;
    const scopes: Record<string, () => void> = {
      a: () => allow({ kind: "once" }),
      s: () => allow({ kind: "session" }),
      t: () => allow({ kind: "for", minutes }),
      w: () => allow({ kind: "always" }),
    };
    const act = scopes[key];
    if (act !== undefined) {
      e.preventDefault();
      act();
    }
  };

  return (
    <div className="approval-body" onKeyDown={onKeyDown} data-testid="tool-call-approval">
      <div className="approval-tool">
        <h3>
          <code data-testid="approval-tool">{question.tool}</code>
          {question.title !== null && <span className="approval-tool-title"> — {question.title}</span>}
        </h3>
        {question.description !== null && <p className="approval-description">{question.description}</p>}
        {hints.length > 0 && (
          <p className="approval-hints" aria-label="What the server says about this tool">
            {hints.map((hint) => (
              <span key={hint} className={`badge badge-hint badge-hint-${hint.replace(" ", "-")}`}>
                {hint}
              </span>
            ))}
            <span className="muted"> (the server's hints)</span>
          </p>
        )}
      </div>
      {question.changes.length > 0 && <DefinitionChanges changes={question.changes} />}
      <div className="approval-arguments">
        <div className="approval-section-head">
          <h4>Arguments</h4>
          <button type="button" className="button button-small" onClick={() => setEditing((on) => !on)} data-testid="edit-arguments">
            {editing ? "Use the original" : "Edit"}
          </button>
        </div>
        {editing ? (
          <>
            <textarea
              className="approval-json-editor"
              value={text}
              onChange={(e) => setText(e.target.value)}
              spellCheck={false}
              rows={Math.min(16, Math.max(4, text.split("\n").length))}
              aria-label="Arguments (JSON)"
              data-testid="arguments-editor"
            />
            {edited.problems.length > 0 && (
              <ul className="field-error approval-problems" data-testid="arguments-problems">
                {edited.problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            )}
          </>
        ) : (
          <JsonView value={question.arguments} label="Arguments" testId="approval-arguments" />
        )}
      </div>
      <div className="approval-actions" role="group" aria-label="Answer">
        <button type="button" className="button button-primary" disabled={blocked} onClick={() => allow({ kind: "once" })} data-testid="allow-once" data-autofocus>
          Allow once <kbd>A</kbd>
        </button>
        <button type="button" className="button" disabled={blocked} onClick={() => allow({ kind: "session" })} data-testid="allow-session">
          For this session <kbd>S</kbd>
        </button>
        <span className="approval-for-time">
          <button type="button" className="button" disabled={blocked} onClick={() => allow({ kind: "for", minutes })} data-testid="allow-for">
            For <kbd>T</kbd>
          </button>
          <select value={minutes} onChange={(e) => setMinutes(Number(e.target.value))} aria-label="For how long" data-testid="allow-for-minutes">
            {DURATIONS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </span>
        <button type="button" className="button" disabled={blocked} onClick={() => allow({ kind: "always" })} data-testid="allow-always">
          Always allow <kbd>W</kbd>
        </button>
      </div>
      <DenyWithReason reason={reason} onReason={setReason} onDeny={deny} busy={busy} label={<>Deny <kbd>D</kbd></>} />
    </div>
  );
}
