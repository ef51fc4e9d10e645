// A server's form elicitation: a form generated from the requested schema by rjsf (`@rjsf/core`,
// with the Call form's validator: defaults, choices with their titles, validation), which the
// person accepts, declines or cancels.

import Form from "@rjsf/core";
import { useMemo } from "react";
import type { Question } from "../../api/gatehouse";
import type { Value } from "../../bindings";
import { formSchema } from "../../model/toolSchemaValidator";
import type { AnswerProps } from "./ApprovalDialog";

type ElicitationQuestion = Extract<Question, { kind: "elicitation" }>;

export function ElicitationApproval({ question, answer, busy }: { question: ElicitationQuestion } & AnswerProps) {
  const { schema, validator } = useMemo(() => formSchema(question.requestedSchema), [question.requestedSchema]);
  return (
    <div className="approval-body" data-testid="elicitation-approval">
      <p className="approval-message-text">{question.message}</p>
      <Form
        schema={schema}
        validator={validator}
        disabled={busy}
        showErrorList={false}
        onSubmit={({ formData }) => void answer({ kind: "accept", content: (formData ?? {}) as Value })}
        className="tool-call-form approval-form"
      >
        <div className="approval-actions">
          <button type="submit" className="button button-primary" disabled={busy} data-testid="elicitation-accept">
            Send
          </button>
          <button type="button" className="button button-danger" disabled={busy} onClick={() => void answer({ kind: "deny", reason: null })} data-testid="deny">
            Decline
          </button>
          <button type="button" className="button" disabled={busy} onClick={() => void answer({ kind: "cancel" })} data-testid="elicitation-cancel">
            Cancel
          </button>
        </div>
      </Form>
    </div>
  );
}
