// Natural ordering for names people read: digits compare as numbers (e2 before e10), letters
// without regard to case or accents, ties broken by a stable key so the order never flickers.

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });

/** Compares two names naturally: "e2" < "e10", "Alpha" and "alpha" equal. */
export function naturalCompare(a: string, b: string): number {
  return collator.compare(a, b);
}

/** A sorted copy of `items` by `name`, naturally; equal names keep the order of `tie`. */
export function naturalSortBy<T>(items: readonly T[], name: (item: T) => string, tie: (item: T) => string): T[] {
  return [...items].sort((a, b) => naturalCompare(name(a), name(b)) || (tie(a) < tie(b) ? -1 : tie(a) > tie(b) ? 1 : 0));
}
