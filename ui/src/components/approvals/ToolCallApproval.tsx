// A tool call waiting for the person: the tool (title, description), the server's hints as
// badges (never trusted), what changed since a rule allowed it, and the arguments, highlighted
// and editable (edits are checked against the tool's inputSchema here and again by the
// engine). Answers: allow once, for this session, for a time (a grant covering these arguments
// or any, the engine's default chosen first), always (a rule for the tool, any arguments, for
// this source; offered only where such a rule would decide), or deny with a reason; keyboard:
// A, S, T, W, D (taken by the dialog, never from a text field, and only once it is armed).

import { useEffect, useId, useMemo, useState } from "react";
import type { Covers, Question, Scope, Source } from "../../api/gatehouse";
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

/** Who "always" allows: the source that asked. */
function forSource(source: Source): string {
  return source === "user" ? "your own calls" : `calls from ${source === "app" ? "apps" : source}`;
}

export function ToolCallApproval({ question, source, answer, busy, setShortcuts }: { question: ToolCallQuestion; source: Source } & AnswerProps) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(() => JSON.stringify(question.arguments ?? {}, null, 2));
  const [minutes, setMinutes] = useState(10);
  const [reason, setReason] = useState("");
  const [covers, setCovers] = useState<Covers>(question.defaultCovers);
  const coversName = useId();
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

  const allow = (scope: Scope) => {
    const grant = scope.kind === "session" || scope.kind === "for";
    void answer({ kind: "allow", scope, arguments: editing ? edited.value : null, covers: grant ? covers : null });
  };
  const deny = () => void answer(denial(reason));

  // The dialog takes the keys; these are the answers they give now.
  useEffect(() => {
    const keys: Record<string, () => void> = {};
    if (!busy) keys.d = deny;
    if (!blocked) {
      keys.a = () => allow({ kind: "once" });
      keys.s = () => allow({ kind: "session" });
      keys.t = () => allow({ kind: "for", minutes });
      if (question.alwaysOffered) keys.w = () => allow({ kind: "always" });
    }
    setShortcuts(keys);
    return () => setShortcuts(null);
  });

  return (
    <div className="approval-body" data-testid="tool-call-approval">
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
      <fieldset className="approval-covers" data-testid="grant-covers">
        <legend>A grant for this session or a time covers</legend>
        <label className="checkbox">
          <input type="radio" name={coversName} checked={covers === "these"} onChange={() => setCovers("these")} data-testid="covers-these" />
          these arguments only{editing ? " (as edited)" : ""}
        </label>
        <label className="checkbox">
          <input type="radio" name={coversName} checked={covers === "any"} onChange={() => setCovers("any")} data-testid="covers-any" />
          any arguments{question.defaultCovers === "these" ? " (you choose it: the request did not)" : ""}
        </label>
      </fieldset>
      <div className="approval-actions" role="group" aria-label="Answer">
        <button type="button" className="button button-primary" disabled={blocked} onClick={() => allow({ kind: "once" })} data-testid="allow-once">
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
        {question.alwaysOffered && (
          <button type="button" className="button" disabled={blocked} onClick={() => allow({ kind: "always" })} data-testid="allow-always">
            Always allow, any arguments, {forSource(source)} <kbd>W</kbd>
          </button>
        )}
      </div>
      {!question.alwaysOffered && (
        <p className="muted approval-no-always" data-testid="no-always">
          &ldquo;Always&rdquo; is not offered: a rule for this tool or its arguments asks, and a new rule would not overrule
          it. Change that rule on the Policies page.
        </p>
      )}
      <DenyWithReason reason={reason} onReason={setReason} onDeny={deny} busy={busy} label={<>Deny <kbd>D</kbd></>} />
    </div>
  );
}
