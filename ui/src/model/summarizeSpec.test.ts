// Tests for the one-line server summary shown in the list.

import { describe, expect, it } from "vitest";
import { summarizeSpec } from "./summarizeSpec";

describe("summarizeSpec", () => {
  it("shows a stdio command line, quoting only arguments that need it", () => {
    expect(
      summarizeSpec({ kind: "stdio", command: "npx", args: ["-y", "pkg", "two words", ""], env: [], cwd: null }),
    ).toBe('npx -y pkg "two words" ""');
  });

  it("shows the url of an http server", () => {
    expect(summarizeSpec({ kind: "http", url: "https://h/mcp", transport: "auto", headers: [] })).toBe("https://h/mcp");
  });
});
