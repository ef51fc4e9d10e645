// Tests for the palette's fuzzy matching: subsequences match in order and ignoring case, runs
// and word starts rank higher, a late start ranks lower, and what is not there matches nothing.

import { describe, expect, it } from "vitest";
import { fuzzyMatch, rankMatches } from "./fuzzyMatch";

const ranked = (query: string, texts: string[]) => rankMatches(query, texts, (t) => t).map((r) => r.item);

describe("fuzzyMatch", () => {
  it("matches a subsequence in order, ignoring case, and says where", () => {
    expect(fuzzyMatch("GTIM", "get-tiny-image")?.positions).toEqual([0, 4, 9, 10]);
    expect(fuzzyMatch("srv", "Servers")).not.toBeNull();
    expect(fuzzyMatch("vs", "Servers")?.positions).toEqual([3, 6]);
  });

  it("matches nothing when a character is missing or out of order", () => {
    expect(fuzzyMatch("xyz", "Servers")).toBeNull();
    expect(fuzzyMatch("sv", "vs")).toBeNull();
    expect(fuzzyMatch("longer than the text", "short")).toBeNull();
  });

  it("matches everything with an empty query", () => {
    expect(fuzzyMatch("", "Audit")).toEqual({ score: 0, positions: [] });
    expect(fuzzyMatch("   ", "Audit")).toEqual({ score: 0, positions: [] });
  });

  it("prefers the placement that runs together over the first one found", () => {
    // A greedy scan would take the first "e" and "c"; the best match is the run "echo".
    expect(fuzzyMatch("echo", "e-c-h-o echo")?.positions).toEqual([8, 9, 10, 11]);
  });

  it("ranks consecutive characters above scattered ones", () => {
    expect(ranked("log", ["a-l-o-g", "catalog"])).toEqual(["catalog", "a-l-o-g"]);
  });

  it("ranks word starts above the middle of a word", () => {
    expect(ranked("gs", ["bugsy", "get_status"])).toEqual(["get_status", "bugsy"]);
    expect(ranked("ts", ["outputs", "toolSearch"])).toEqual(["toolSearch", "outputs"]);
  });

  it("ranks a prefix above the same run later on", () => {
    expect(ranked("aud", ["Verify the audit chain", "Audit"])).toEqual(["Audit", "Verify the audit chain"]);
  });

  it("keeps the given order between equal matches and drops those that do not match", () => {
    expect(ranked("e", ["echo", "everything", "add"])).toEqual(["echo", "everything"]);
  });
});
