// Tests for task status labels, tones and the running flag.

import { describe, expect, it } from "vitest";
import { describeTaskStatus } from "./describeTaskStatus";

describe("describeTaskStatus", () => {
  it.each([
    ["working", "Working", "working", true],
    ["input_required", "Needs input", "input-required", true],
    ["completed", "Completed", "completed", false],
    ["failed", "Failed", "failed", false],
    ["cancelled", "Cancelled", "cancelled", false],
  ])("describes %s", (status, label, tone, running) => {
    expect(describeTaskStatus(status)).toEqual({ label, tone, running });
  });

  it("passes an unknown status through in a neutral tone", () => {
    expect(describeTaskStatus("paused")).toEqual({ label: "paused", tone: "unknown", running: false });
    expect(describeTaskStatus("")).toEqual({ label: "Unknown", tone: "unknown", running: false });
  });
});
