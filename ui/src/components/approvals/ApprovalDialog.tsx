// The dialog that puts one waiting request to the person: who asks, why, and the request
// itself (a tool call, a sampling request, a form, a URL, another request), with its answers.
// Closing it (Escape, "Decide later") leaves the request waiting on the Approvals page; it is
// denied only by an answer or by the engine's timeout.
//
// It cannot be answered by accident: the focus goes to the dialog itself, never to an answer;
// every answer (key or click) is disarmed for a moment after the request appears
// (`useArming`), and again after each key pressed meanwhile; keyboard answers are never taken
// from a text field.

import { useRef, useState } from "react";
import type { KeyboardEvent } from "react";
import type { Answer, PendingApproval } from "../../api/gatehouse";
import { errorMessage } from "../../api/GatehouseError";
import { isTextField, useArming } from "../../hooks/useArming";
import { useAnswerApproval } from "../../hooks/useApprovals";
import { useNow } from "../../hooks/useNow";
import { approvalTitle, askedThrough, timeLeft } from "../../model/describeApproval";
import { Dialog } from "../Dialog";
import { ElicitationApproval } from "./ElicitationApproval";
import { OpenUrlApproval } from "./OpenUrlApproval";
import { RequestApproval } from "./RequestApproval";
import { SamplingApproval } from "./SamplingApproval";
import { ToolCallApproval } from "./ToolCallApproval";

type ApprovalDialogProps = {
  pending: PendingApproval;
  /** Close without answering: the request keeps waiting. */
  onLater: () => void;
};

/** Keyboard answers: a lower-case key and what it does. */
export type Shortcuts = Record<string, () => void>;

/** What each kind of question needs: a way to answer, and whether an answer is being sent. */
export type AnswerProps = {
  /** Sends the answer; one given while the dialog is disarmed is ignored (false). */
  answer: (answer: Answer) => Promise<boolean>;
  busy: boolean;
  /** Offers keyboard answers while the body is shown (null: none). */
  setShortcuts: (shortcuts: Shortcuts | null) => void;
};

export function ApprovalDialog({ pending, onLater }: ApprovalDialogProps) {
  const mutation = useAnswerApproval();
  const [error, setError] = useState<string | null>(null);
  const now = useNow(1000);
  const arming = useArming(pending.id);
  const shortcuts = useRef<Shortcuts | null>(null);

  const answer = async (given: Answer): Promise<boolean> => {
    if (!arming.armedNow()) return false;
    setError(null);
    try {
      await mutation.mutateAsync({ id: pending.id, answer: given });
      return true;
    } catch (e) {
      setError(errorMessage(e));
      return false;
    }
  };
  const setShortcuts = (given: Shortcuts | null) => {
    shortcuts.current = given;
  };
  const props: AnswerProps = { answer, busy: mutation.isPending, setShortcuts };
  const q = pending.question;
  const through = askedThrough(pending);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (isTextField(e.target) || e.ctrlKey || e.metaKey || e.altKey || e.key.length !== 1) return;
    if (!arming.armedNow()) {
      // Someone is typing: whatever they type is not an answer, and the delay starts again.
      arming.restart();
      e.preventDefault();
      return;
    }
    const act = shortcuts.current?.[e.key.toLowerCase()];
    if (act !== undefined) {
      e.preventDefault();
      act();
    }
  };

  return (
    <Dialog title={approvalTitle(q)} onClose={onLater} size="large" testId="approval-dialog" initialFocus="dialog" onKeyDown={onKeyDown}>
      <div className={`approval${arming.armed ? "" : " approval-arming"}`} data-kind={q.kind} data-approval-id={pending.id} data-armed={arming.armed}>
        <dl className="approval-who">
          <div>
            <dt>Server</dt>
            <dd data-testid="approval-server">{pending.server}</dd>
          </div>
          <div>
            <dt>Asked by</dt>
            <dd>
              <span className={`badge badge-source badge-source-${pending.source}`}>{pending.source}</span>
              {through !== null && <span data-testid="approval-through"> through {through}</span>}
            </dd>
          </div>
          <div>
            <dt>Denied unanswered</dt>
            <dd>{timeLeft(pending.expiresAtMs, now)}</dd>
          </div>
        </dl>
        <p className="approval-reason" data-testid="approval-reason">
          {pending.reason}
        </p>
        {q.kind === "toolCall" && <ToolCallApproval question={q} source={pending.source} {...props} />}
        {q.kind === "sampling" && <SamplingApproval params={q.params} {...props} />}
        {q.kind === "elicitation" && <ElicitationApproval question={q} {...props} />}
        {q.kind === "openUrl" && <OpenUrlApproval question={q} {...props} />}
        {q.kind === "request" && <RequestApproval question={q} {...props} />}
        {error !== null && (
          <p className="field-error approval-error" role="alert" data-testid="approval-error">
            {error}
          </p>
        )}
        <div className="approval-later">
          <button type="button" className="button button-small" onClick={onLater} data-testid="approval-later">
            Decide later
          </button>
        </div>
      </div>
    </Dialog>
  );
}
