// Asks the person before an app's link opens in the system browser: the whole URL is shown, and
// nothing opens unless they choose Open.

import { useId } from "react";
import { Dialog } from "../Dialog";

export function AppLinkDialog({ url, onAnswer }: { url: string; onAnswer: (open: boolean) => void }) {
  const messageId = useId();
  return (
    <Dialog title="Open this link?" onClose={() => onAnswer(false)} role="alertdialog" describedBy={messageId} testId="app-link-dialog">
      <p id={messageId} className="dialog-message">
        The app asks to open this address in your browser:
      </p>
      <p className="approval-url">
        <code data-testid="app-link-url">{url}</code>
      </p>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={() => onAnswer(false)} data-autofocus>
          Cancel
        </button>
        <button type="button" className="button button-primary" onClick={() => onAnswer(true)} data-testid="app-link-open">
          Open
        </button>
      </div>
    </Dialog>
  );
}
