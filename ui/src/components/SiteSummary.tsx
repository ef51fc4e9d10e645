// Where a URL leads, as the person sees it before agreeing to open it: the site large, the whole
// URL below it, and the warnings the engine found (Punycode, a user name that disguises the site,
// plain http, not a web URL). The same words for a server's URL elicitation and an app's link:
// both come from the engine's one description of a URL.

export function SiteSummary({
  domain,
  url,
  warnings,
  urlTestId = "approval-url",
}: {
  domain: string;
  url: string;
  warnings: readonly string[];
  /** The test id of the URL itself (each dialog names its own). */
  urlTestId?: string;
}) {
  return (
    <>
      <p className="approval-domain" data-testid="approval-domain">
        {domain || "no site"}
      </p>
      <p className="approval-url">
        <code data-testid={urlTestId}>{url}</code>
      </p>
      {warnings.length > 0 && (
        <ul className="approval-warnings" data-testid="approval-warnings">
          {warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
    </>
  );
}
