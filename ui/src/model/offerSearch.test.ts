// Tests for the Resources and Prompts search: every word, any field, any case.

import { describe, expect, it } from "vitest";
import { matchesSearch } from "./offerSearch";

describe("matchesSearch", () => {
  const fields = ["Resource 3", null, "demo://resource/static/document/architecture.md", "The architecture"];
  it("matches every word in any field, in any case", () => {
    expect(matchesSearch("", fields)).toBe(true);
    expect(matchesSearch("ARCHITECTURE", fields)).toBe(true);
    expect(matchesSearch("demo 3", fields)).toBe(true);
    expect(matchesSearch("demo prompt", fields)).toBe(false);
  });
});
