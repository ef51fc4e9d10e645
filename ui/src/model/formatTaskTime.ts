// When a task started or was last updated, as a person reads it: relative while recent
// ("just now", "3 min ago", "2 h ago"), otherwise the local date and time. The engine stores
// UTC timestamps like 2026-11-21T14:36:57.123Z.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Locale and time zone for the absolute form; the user's own when left out (tests pin them). */
export type TimeFormat = { locale?: string; timeZone?: string };

/** The local date and time of a timestamp, e.g. "21 Nov 2026, 14:36"; an unreadable one as it is. */
export function localDateTime(iso: string, format: TimeFormat = {}): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  const options: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short" };
  if (format.timeZone !== undefined) options.timeZone = format.timeZone;
  return new Intl.DateTimeFormat(format.locale, options).format(time);
}

/** How long ago a timestamp was, relative to `now` (ms since the epoch); older than a day: its local date and time. */
export function relativeTime(iso: string, now: number, format: TimeFormat = {}): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  const ago = now - time;
  // Slightly in the future happens when another process's clock reading was a moment later.
  if (ago < -MINUTE || ago >= DAY) return localDateTime(iso, format);
  if (ago < MINUTE) return "just now";
  if (ago < HOUR) return `${Math.floor(ago / MINUTE)} min ago`;
  return `${Math.floor(ago / HOUR)} h ago`;
}
