// One of a server's lists in the Resources and Prompts tabs (resources, templates, prompts): the
// items loaded so far that match the search, each a button that opens it, and Load more while
// the server has further pages. Errors say what to do next.

import type { PagedList } from "../hooks/usePagedList";
import { offerErrorText } from "../model/offerErrors";
import { ErrorBanner } from "./ErrorBanner";

export type OfferRow = { key: string; label: string; detail: string | null; description: string | null };

type OfferListProps<T> = {
  title: string;
  list: PagedList<T>;
  /** The items that match the search, as rows. */
  rows: (items: T[]) => OfferRow[];
  selected: string | null;
  onSelect: (key: string) => void;
  empty: string;
  testId: string;
};

export function OfferList<T>({ title, list, rows, selected, onSelect, empty, testId }: OfferListProps<T>) {
  const shown = rows(list.items);
  const headingId = `${testId}-heading`;
  return (
    <section className="offer-list" aria-labelledby={headingId} data-testid={testId}>
      <h3 id={headingId}>
        {title} <span className="muted">({list.items.length}{list.hasMore ? "+" : ""})</span>
      </h3>
      {list.error !== null && <ErrorBanner message={offerErrorText(list.error)} onRetry={list.reload} />}
      {list.loading && <p className="muted">Loading…</p>}
      {!list.loading && list.error === null && shown.length === 0 && <p className="muted">{empty}</p>}
      <ul className="offer-items">
        {shown.map((row) => (
          <li key={row.key}>
            <button
              type="button"
              className={row.key === selected ? "offer-item offer-item-selected" : "offer-item"}
              aria-current={row.key === selected ? "true" : undefined}
              onClick={() => onSelect(row.key)}
              title={row.description ?? undefined}
            >
              <span className="offer-item-label">{row.label}</span>
              {row.detail !== null && <span className="offer-item-detail mono">{row.detail}</span>}
            </button>
          </li>
        ))}
      </ul>
      {list.malformed > 0 && (
        <p className="muted">
          {list.malformed} {list.malformed === 1 ? "entry was" : "entries were"} malformed and left out.
        </p>
      )}
      {list.hasMore && (
        <button type="button" className="button button-small" onClick={list.loadMore} disabled={list.loadingMore}>
          {list.loadingMore ? "Loading…" : `Load more ${title.toLowerCase()}`}
        </button>
      )}
    </section>
  );
}
