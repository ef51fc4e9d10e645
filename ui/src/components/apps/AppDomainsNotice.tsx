// Tells the person which outside origins a view was allowed to reach, as its resource declared
// them (SEP-1865: the host enforces only the declared domains; the person should still see
// them). Shown above the view whenever it declares any; nothing when it declares none.

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

export function AppDomainsNotice({ csp }: { csp: AppCsp }) {
  const declared = KINDS.filter(([key]) => csp[key].length > 0);
  if (declared.length === 0) return null;
  return (
    <div className="app-domains" role="note" data-testid="app-domains">
      <p>This app may reach sites outside Gatehouse:</p>
      <ul>
        {declared.map(([key, what]) => {
          const origins = csp[key];
          const shown = origins.slice(0, MAX_SHOWN).map((o) => capText(o, MAX_ORIGIN_CHARS));
          const more = origins.length - shown.length;
          return (
            <li key={key} data-testid={`app-domains-${key}`}>
              {what} <code>{shown.join(", ")}</code>
              {more > 0 && ` and ${more} more`}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
