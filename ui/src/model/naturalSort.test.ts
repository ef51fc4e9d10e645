// Tests for natural ordering: numbers by value, case ignored, stable ties.

import { describe, expect, it } from "vitest";
import { naturalCompare, naturalSortBy } from "./naturalSort";

describe("naturalSortBy", () => {
  const byName = (names: string[]) =>
    naturalSortBy(
      names.map((name, i) => ({ name, id: `id-${String(i).padStart(3, "0")}` })),
      (s) => s.name,
      (s) => s.id,
    ).map((s) => s.name);

  it("orders numbers inside names by value, not by character", () => {
    expect(byName(["e10", "e2", "e100", "e1", "e11"])).toEqual(["e1", "e2", "e10", "e11", "e100"]);
  });

  it("ignores case and keeps words before their numbered siblings", () => {
    expect(byName(["Zeta", "alpha", "Beta2", "beta", "beta10"])).toEqual(["alpha", "beta", "Beta2", "beta10", "Zeta"]);
  });

  it("breaks ties between equal names by the stable key, whatever the input order", () => {
    const items = [
      { name: "Docs", id: "b" },
      { name: "docs", id: "a" },
    ];
    expect(naturalSortBy(items, (s) => s.name, (s) => s.id).map((s) => s.id)).toEqual(["a", "b"]);
    expect(naturalSortBy([...items].reverse(), (s) => s.name, (s) => s.id).map((s) => s.id)).toEqual(["a", "b"]);
  });

  it("sorts a hundred numbered names as a person counts", () => {
    const names = Array.from({ length: 100 }, (_, i) => `server-${100 - i}`);
    const sorted = byName(names);
    expect(sorted.slice(0, 3)).toEqual(["server-1", "server-2", "server-3"]);
    expect(sorted.at(-1)).toBe("server-100");
    expect(naturalCompare("server-9", "server-10")).toBeLessThan(0);
  });
});
