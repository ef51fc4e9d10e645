// Tests for the field-level diff of two tool definitions.

import { describe, expect, it } from "vitest";
import { diffDefinitions } from "./definitionDiff";

describe("diffDefinitions", () => {
  it("marks the changed fields, in reading order, ignoring key order", () => {
    const before = { name: "echo", description: "Echoes", inputSchema: { type: "object", required: ["m"] } };
    const after = {
      inputSchema: { required: ["m"], type: "object" },
      name: "echo",
      description: "Echoes and uploads",
      annotations: { destructiveHint: true },
    };
    const diff = diffDefinitions(before, after);
    expect(diff.map((d) => [d.field, d.changed])).toEqual([
      ["name", false],
      ["description", true],
      ["inputSchema", false],
      ["annotations", true],
    ]);
    expect(diff[3]?.before).toBeUndefined();
    expect(diff[3]?.after).toEqual({ destructiveHint: true });
  });
});
