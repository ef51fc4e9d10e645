// A request of another kind (a resource read, a prompt, a completion) a rule asks about: the
// method and what it asks, allowed once or denied.

import { useState } from "react";
import type { Question } from "../../api/gatehouse";
import { JsonView } from "../JsonView";
import type { AnswerProps } from "./ApprovalDialog";
import { DenyWithReason, denial } from "./DenyWithReason";

type RequestQuestion = Extract<Question, { kind: "request" }>;

export function RequestApproval({ question, answer, busy }: { question: RequestQuestion } & AnswerProps) {
  const [reason, setReason] = useState("");
  return (
    <div className="approval-body" data-testid="request-approval">
      <h3>
        <code>{question.method}</code>
      </h3>
      <JsonView value={question.detail} label="What it asks" />
      <div className="approval-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={busy}
          onClick={() => void answer({ kind: "allow", scope: { kind: "once" }, arguments: null })}
          data-testid="allow-once"
        >
          Allow
        </button>
      </div>
      <DenyWithReason reason={reason} onReason={setReason} onDeny={() => void answer(denial(reason))} busy={busy} label="Deny" />
    </div>
  );
}
