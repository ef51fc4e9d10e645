import { describe, expect, it } from "vitest";
import { capText } from "./capText";

describe("capText", () => {
  it("keeps short text whole", () => {
    expect(capText("echo", 10)).toBe("echo");
    expect(capText("", 3)).toBe("");
  });

  it("cuts long text to the bound, the mark included", () => {
    const cut = capText("n".repeat(200_000), 200);
    expect(Array.from(cut)).toHaveLength(200);
    expect(cut.endsWith("…")).toBe(true);
  });

  it("counts characters, not UTF-16 units", () => {
    expect(capText("😀😀😀", 3)).toBe("😀😀😀");
    expect(capText("😀😀😀😀", 3)).toBe("😀😀…");
  });
});
