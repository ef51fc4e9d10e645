import { describe, expect, it } from "vitest";

import type { PendingApproval } from "../api/gatehouse";
import { approvalSummary, askedThrough } from "./describeApproval";

function toolCall(source: PendingApproval["source"], caller: string | null): PendingApproval {
  return {
    id: "p-1",
    server: "filesystem",
    source,
    caller,
    question: { kind: "toolCall", tool: "write_file" },
  } as unknown as PendingApproval;
}

describe("approvalSummary", () => {
  it("names the agent that wants a call through the gateway", () => {
    expect(approvalSummary(toolCall("gateway", "Claude Code"))).toBe("Claude Code wants to call filesystem · write_file");
  });

  it("names the server for a person's own call", () => {
    expect(approvalSummary(toolCall("user", "cli"))).toBe("filesystem wants to call write_file");
  });
});

describe("askedThrough", () => {
  it("names the CLI and a gateway client, never an app view's token", () => {
    expect(askedThrough(toolCall("user", "cli"))).toBe("the gatehouse CLI");
    expect(askedThrough(toolCall("gateway", "cursor"))).toBe("cursor");
    expect(askedThrough(toolCall("app", "view 3f2a"))).toBeNull();
    expect(askedThrough(toolCall("user", null))).toBeNull();
  });
});
