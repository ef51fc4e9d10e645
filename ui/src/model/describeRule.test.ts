// Tests for the words describing a rule and why it is stale.

import { describe, expect, it } from "vitest";
import { ruleView } from "../test/auditFixtures";
import { describeArgument, ruleLayer, staleReason } from "./describeRule";

describe("describeRule", () => {
  it("names the argument condition and the layer", () => {
    const argument = { pointer: "/path", pattern: { kind: "glob" as const, pattern: "~/projects/**" }, outside: true };
    expect(describeArgument(argument)).toBe("/path outside glob ~/projects/**");
    expect(ruleLayer(ruleView("r-1", { tool: "write", argument }))).toBe("argument");
    expect(ruleLayer(ruleView("r-2", { tool: "write" }))).toBe("tool");
    expect(ruleLayer(ruleView("r-3"))).toBe("server");
    expect(ruleLayer(ruleView("r-4", { server: null, serverId: null }))).toBe("global");
  });

  it("says which definitions a stale rule is between", () => {
    const stale = ruleView("r-1", {
      tool: "echo",
      decision: "allow",
      stale: true,
      definitionHash: "a".repeat(64),
      currentDefinitionHash: "b".repeat(64),
    });
    expect(staleReason(stale)).toContain(`definition ${"a".repeat(12)}`);
    expect(staleReason(stale)).toContain(`now shows ${"b".repeat(12)}`);
    expect(staleReason({ ...stale, stale: false })).toBeNull();
  });
});
