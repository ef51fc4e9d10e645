// The Approvals page: the requests waiting for an answer (each can be opened in the dialog
// again after "Decide later") and the standing grants, with revoke.

import { errorMessage } from "../../api/GatehouseError";
import { useApprovals } from "../../hooks/useApprovals";
import { useNow } from "../../hooks/useNow";
import { approvalSummary, askedThrough, timeLeft } from "../../model/describeApproval";
import { ErrorBanner } from "../ErrorBanner";
import { useApprovalPrompt } from "./ApprovalPromptContext";
import { GrantList } from "./GrantList";

export function ApprovalsPage() {
  const approvals = useApprovals();
  const { show } = useApprovalPrompt();
  const now = useNow(5000);
  const pending = approvals.data ?? [];
  return (
    <section className="approvals-page" aria-labelledby="approvals-heading">
      <div className="page-toolbar">
        <h1 id="approvals-heading">Approvals</h1>
      </div>
      <h2 className="approvals-subheading">Waiting for you</h2>
      {approvals.isError && <ErrorBanner message={errorMessage(approvals.error)} onRetry={() => void approvals.refetch()} />}
      {approvals.isSuccess && pending.length === 0 && (
        <p className="muted empty-state-compact" data-testid="no-approvals">
          Nothing is waiting. When a rule asks about a call, or a server asks you something, it appears here and in a dialog.
        </p>
      )}
      {pending.length > 0 && (
        <ul className="approvals-list" data-testid="approval-list">
          {pending.map((p) => (
            <li key={p.id} className="approvals-item" data-testid="approval-item">
              <div>
                <p className="approvals-item-summary">{approvalSummary(p)}</p>
                <p className="muted">
                  asked by {p.source}
                  {askedThrough(p) !== null && ` through ${askedThrough(p)}`} · {new Date(p.askedAtMs ?? now).toLocaleTimeString()} · denied unanswered {timeLeft(p.expiresAtMs, now)}
                </p>
              </div>
              <button type="button" className="button button-primary button-small" onClick={() => show(p.id)} data-testid="answer-approval">
                Answer
              </button>
            </li>
          ))}
        </ul>
      )}
      <h2 className="approvals-subheading">Standing grants</h2>
      <GrantList />
    </section>
  );
}
