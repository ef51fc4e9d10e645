// A server's names, titles and descriptions can be of any length (a tool name of 200,000
// characters is a real fault case): what is rendered is cut to a bound, ending with "…", and
// CSS keeps even the cut text from stretching the view (text-overflow: ellipsis).

/** The most characters of a name or title rendered. */
export const MAX_NAME_CHARS = 200;

/** The most characters of a description or a log line rendered. */
export const MAX_TEXT_CHARS = 2000;

/** `text` cut to at most `max` characters (code points), ending with "…" when it was cut. */
export function capText(text: string, max: number): string {
  // At most `max` UTF-16 units is at most `max` characters.
  if (text.length <= max) return text;
  // Enough units for max + 1 characters, without splitting all of a long text.
  const head = Array.from(text.slice(0, 2 * max + 2));
  if (head.length <= max && text.length <= 2 * max + 2) return text;
  return head.slice(0, Math.max(0, max - 1)).join("") + "…";
}
