// Asks the person before an app's link opens in the system browser ("Open this link?", asked
// through useConfirmation): the site is shown large with the whole URL and the same warnings as a
// server's URL elicitation (the engine describes both), and nothing opens unless they choose
// Open, which waits until the description is there.

import { useEffect, useId, useState } from "react";
import { describeUrl, type UrlSite } from "../../api/gatehouse";
import { Dialog } from "../Dialog";
import { SiteSummary } from "../SiteSummary";

export function AppLinkDialog({ url, onAnswer }: { url: string; onAnswer: (open: boolean) => void }) {
  const messageId = useId();
  // The description of the URL it was made for: a new URL shows nothing until its own arrives.
  const [described, setDescribed] = useState<{ url: string; site: UrlSite } | null>(null);
  useEffect(() => {
    let current = true;
    describeUrl(url)
      .then((site) => current && setDescribed({ url, site }))
      .catch(() => current && setDescribed({ url, site: { domain: "", warnings: ["Gatehouse could not read where this link leads"] } }));
    return () => {
      current = false;
    };
  }, [url]);
  const site = described?.url === url ? described.site : null;
  return (
    <Dialog title="Open this link?" onClose={() => onAnswer(false)} role="alertdialog" describedBy={messageId} testId="app-link-dialog">
      <p id={messageId} className="dialog-message">
        The app asks to open this address in your browser:
      </p>
      {site === null ? (
        <p className="approval-url">
          <code data-testid="app-link-url">{url}</code>
        </p>
      ) : (
        <SiteSummary domain={site.domain} url={url} warnings={site.warnings} urlTestId="app-link-url" />
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={() => onAnswer(false)} data-autofocus>
          Cancel
        </button>
        <button
          type="button"
          className="button button-primary"
          disabled={site === null}
          onClick={() => onAnswer(true)}
          data-testid="app-link-open"
        >
          Open
        </button>
      </div>
    </Dialog>
  );
}
