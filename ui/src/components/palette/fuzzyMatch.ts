// Fuzzy matching for the command palette: the query's characters must appear in the text in
// order (a subsequence, ignoring case); a match scores higher when its characters run together
// and when they start words ("ab" in "all-bound", "gS" in "getStatus"), and lower when it
// starts late or leaves gaps. The best placement is found by dynamic programming over query × text, so the
// score does not depend on where a greedy scan happened to land.

export type FuzzyMatch = {
  score: number;
  /** The text's indices that matched, in order (for highlighting). */
  positions: number[];
};

/** Characters of the text looked at; beyond that a long description adds nothing. */
const MAX_TEXT = 160;
const MAX_QUERY = 64;

const MATCH = 1;
const CONSECUTIVE = 8;
const WORD_START = 6;
const FIRST_CHAR = 2;
/** Per character skipped before the first match, up to `MAX_LEADING_PENALTY`. */
const LEADING = 1;
const MAX_LEADING_PENALTY = 3;
/** A gap between two matched characters costs GAP_OPEN, and GAP_EXTEND per character skipped. */
const GAP_OPEN = 4;
const GAP_EXTEND = 0.5;

const isAlnum = (c: string) => /[\p{L}\p{N}]/u.test(c);
const isUpper = (c: string) => c !== c.toLowerCase() && c === c.toUpperCase();

/** Whether text[i] begins a word: the first character, after a separator, or a camelCase hump. */
function wordStart(text: string, i: number): boolean {
  if (i === 0) return true;
  const before = text.charAt(i - 1);
  const here = text.charAt(i);
  if (!isAlnum(before)) return isAlnum(here);
  return isUpper(here) && !isUpper(before);
}

/** The best match of `query` in `text`, or null when its characters are not all there in order. */
export function fuzzyMatch(query: string, text: string): FuzzyMatch | null {
  const q = query.trim().slice(0, MAX_QUERY).toLowerCase().replace(/\s+/g, "");
  if (q === "") return { score: 0, positions: [] };
  const t = text.slice(0, MAX_TEXT);
  const lower = t.toLowerCase();
  const n = lower.length;
  const m = q.length;
  if (m > n) return null;

  const bonus = (j: number) => MATCH + (wordStart(t, j) ? WORD_START : 0);
  const NONE = -Infinity;
  // score[i][j]: the best score of q[0..i] with q[i] at text index j; from[i][j]: where q[i-1] was.
  const score: number[][] = [];
  const from: number[][] = [];
  for (let i = 0; i < m; i++) {
    const row = new Array<number>(n).fill(NONE);
    const back = new Array<number>(n).fill(-1);
    // The best of score[i-1][k] + GAP_EXTEND * k over k < j - 1 (q[i-1] before a gap), and its k:
    // from there, q[i] at j pays GAP_OPEN + GAP_EXTEND * (j - k - 1).
    let bestBefore = NONE;
    let bestBeforeAt = -1;
    for (let j = 0; j < n; j++) {
      if (i > 0 && j >= 2) {
        const candidate = (score[i - 1]?.[j - 2] ?? NONE) + GAP_EXTEND * (j - 2);
        if (candidate > bestBefore) {
          bestBefore = candidate;
          bestBeforeAt = j - 2;
        }
      }
      if (lower.charAt(j) !== q.charAt(i)) continue;
      if (i === 0) {
        row[j] = bonus(j) + (j === 0 ? FIRST_CHAR : -Math.min(j * LEADING, MAX_LEADING_PENALTY));
        continue;
      }
      const prev = score[i - 1] ?? [];
      const run = j >= 1 ? (prev[j - 1] ?? NONE) + CONSECUTIVE : NONE;
      const gap = bestBefore - GAP_OPEN - GAP_EXTEND * (j - 1);
      if (run >= gap && run > NONE) {
        row[j] = run + bonus(j);
        back[j] = j - 1;
      } else if (gap > NONE) {
        row[j] = gap + bonus(j);
        back[j] = bestBeforeAt;
      }
    }
    score.push(row);
    from.push(back);
  }

  const last = score[m - 1] ?? [];
  let end = -1;
  for (let j = 0; j < n; j++) if ((last[j] ?? NONE) > (end < 0 ? NONE : (last[end] ?? NONE))) end = j;
  if (end < 0 || (last[end] ?? NONE) === NONE) return null;
  const positions: number[] = [];
  for (let i = m - 1, j = end; i >= 0 && j >= 0; i--) {
    positions.push(j);
    j = from[i]?.[j] ?? -1;
  }
  positions.reverse();
  // A shorter text with the same match is the closer one.
  return { score: (last[end] ?? 0) - n / 1000, positions };
}

/** `items` that match `query`, best first (ties keep their order); each with its match. */
export function rankMatches<T>(query: string, items: readonly T[], textOf: (item: T) => string): { item: T; match: FuzzyMatch }[] {
  const found: { item: T; match: FuzzyMatch; index: number }[] = [];
  items.forEach((item, index) => {
    const match = fuzzyMatch(query, textOf(item));
    if (match !== null) found.push({ item, match, index });
  });
  found.sort((a, b) => b.match.score - a.match.score || a.index - b.index);
  return found.map(({ item, match }) => ({ item, match }));
}
