// Tests for task timestamps: relative while recent, the local date and time otherwise.

import { describe, expect, it } from "vitest";
import { localDateTime, relativeTime } from "./formatTaskTime";

const pinned = { locale: "en-GB", timeZone: "UTC" };
const now = Date.parse("2026-11-21T14:36:57.123Z");

function ago(ms: number): string {
  return new Date(now - ms).toISOString();
}

describe("relativeTime", () => {
  it.each([
    [0, "just now"],
    [59_999, "just now"],
    [60_000, "1 min ago"],
    [2 * 60_000 + 30_000, "2 min ago"],
    [59 * 60_000 + 59_999, "59 min ago"],
    [60 * 60_000, "1 h ago"],
    [23 * 60 * 60_000 + 59 * 60_000, "23 h ago"],
  ])("says %i ms ago is %s", (ms, text) => {
    expect(relativeTime(ago(ms), now, pinned)).toBe(text);
  });

  it("gives the local date and time from a day ago on", () => {
    expect(relativeTime("2026-11-20T14:36:57.123Z", now, pinned)).toBe("20 Nov 2026, 14:36");
    expect(relativeTime("2025-01-02T03:04:05Z", now, pinned)).toBe("2 Jan 2025, 03:04");
  });

  it("treats a moment in the future as just now, and later as a date", () => {
    expect(relativeTime(ago(-5_000), now, pinned)).toBe("just now");
    expect(relativeTime("2026-11-21T16:00:00.000Z", now, pinned)).toBe("21 Nov 2026, 16:00");
  });

  it("returns an unreadable timestamp unchanged", () => {
    expect(relativeTime("not a time", now, pinned)).toBe("not a time");
  });
});

describe("localDateTime", () => {
  it("formats in the given locale and time zone", () => {
    expect(localDateTime("2026-11-21T14:36:57.123Z", pinned)).toBe("21 Nov 2026, 14:36");
    expect(localDateTime("2026-11-21T14:36:57.123Z", { locale: "en-GB", timeZone: "Asia/Tokyo" })).toBe(
      "21 Nov 2026, 23:36",
    );
  });

  it("returns an unreadable timestamp unchanged", () => {
    expect(localDateTime("")).toBe("");
  });
});
