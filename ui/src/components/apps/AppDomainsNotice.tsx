// Tells the person which outside origins a view was allowed to reach, as its resource declared
// them (SEP-1865: the host enforces only the declared domains; the person should still see
// them), which declared ones their app site lists withheld, and which Gatehouse refused because
// they lead to this computer, a private network or a whole public suffix (an App sites allow
// entry lets one through). Shown above the view whenever there is any; nothing otherwise.

import type { AppCsp } from "../../api/gatehouse";
import { capText } from "../../model/capText";

const MAX_SHOWN = 8;
const MAX_ORIGIN_CHARS = 80;

const KINDS: readonly (readonly [keyof AppCsp, string])[] = [
  ["connectDomains", "send and receive data with"],
  ["resourceDomains", "load scripts, styles, images and media from"],
  ["frameDomains", "show pages from"],
  ["baseUriDomains", "resolve its links against"],
];

const shortList = (origins: readonly string[]) => origins.slice(0, MAX_SHOWN).map((o) => capText(o, MAX_ORIGIN_CHARS));

export function AppDomainsNotice({
  csp,
  withheld = [],
  refused = [],
}: {
  csp: AppCsp;
  withheld?: readonly string[];
  refused?: readonly string[];
}) {
  const declared = KINDS.filter(([key]) => csp[key].length > 0);
  if (declared.length === 0 && withheld.length === 0 && refused.length === 0) return null;
  const blocked = shortList(withheld);
  const kept = shortList(refused);
  return (
    <div className="app-domains" role="note" data-testid="app-domains">
      {declared.length > 0 ? <p>This app may reach sites outside Gatehouse:</p> : <p>This app may reach no site outside Gatehouse.</p>}
      {declared.length > 0 && (
      <ul>
        {declared.map(([key, what]) => {
          const origins = csp[key];
          const shown = shortList(origins);
          const more = origins.length - shown.length;
          return (
            <li key={key} data-testid={`app-domains-${key}`}>
              {what} <code>{shown.join(", ")}</code>
              {more > 0 && ` and ${more} more`}
            </li>
          );
        })}
      </ul>
      )}
      {blocked.length > 0 && (
        <p data-testid="app-domains-withheld">
          Withheld by your app sites (Policies): <code>{blocked.join(", ")}</code>
          {withheld.length > blocked.length && ` and ${withheld.length - blocked.length} more`}
        </p>
      )}
      {kept.length > 0 && (
        <p data-testid="app-domains-refused">
          Refused (allow them under Policies, App sites, to let this app reach them): <code>{kept.join(", ")}</code>
          {refused.length > kept.length && ` and ${refused.length - kept.length} more`}
        </p>
      )}
    </div>
  );
}
