// A server asks the person to open a URL (URL elicitation): the site is shown large, the whole
// URL below it, with warnings for what looks suspicious. Only on consent is it opened, in the
// system browser, and only http and https URLs at all.

import type { Question } from "../../api/gatehouse";
import { openExternalUrl } from "../../api/gatehouse";
import { SiteSummary } from "../SiteSummary";
import type { AnswerProps } from "./ApprovalDialog";
import { errorMessage } from "../../api/GatehouseError";
import { sentence, showToast } from "../../hooks/useToast";

type OpenUrlQuestion = Extract<Question, { kind: "openUrl" }>;

export function OpenUrlApproval({ question, answer, busy }: { question: OpenUrlQuestion } & AnswerProps) {
  const consent = async () => {
    if (await answer({ kind: "accept", content: null })) {
      // Opening may fail (no browser); the server was told yes either way, and the URL is given.
      await openExternalUrl(question.url).catch((e: unknown) =>
        showToast({
          title: "Could not open the link in your browser",
          description: `${sentence(errorMessage(e))} Open it yourself: ${question.url}`,
        }),
      );
    }
  };
  return (
    <div className="approval-body" data-testid="open-url-approval">
      <p className="approval-message-text">{question.message}</p>
      <SiteSummary domain={question.domain} url={question.url} warnings={question.warnings} />
      <div className="approval-actions">
        <button type="button" className="button button-primary" disabled={busy} onClick={() => void consent()} data-testid="open-url">
          Open in my browser
        </button>
        <button type="button" className="button button-danger" disabled={busy} onClick={() => void answer({ kind: "deny", reason: null })} data-testid="deny">
          Decline
        </button>
      </div>
    </div>
  );
}
