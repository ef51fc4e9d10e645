// Tests for the roots textarea: engine-mirroring validation, blank lines, duplicates, and the
// edit form's lines built from the engine's file:// URIs.

import { describe, expect, it } from "vitest";
import { formatRootLines, parseRootLines } from "./parseRootLines";

describe("parseRootLines", () => {
  it("accepts absolute paths and file:// URIs, trimmed, one per line", () => {
    expect(parseRootLines("  /home/me/project  \r\nfile:///tmp/x\n/srv/data/")).toEqual({
      ok: true,
      items: ["/home/me/project", "file:///tmp/x", "/srv/data/"],
    });
  });

  it("ignores blank lines and gives an empty list for an empty field", () => {
    expect(parseRootLines("\n   \n/a\n\n")).toEqual({ ok: true, items: ["/a"] });
    expect(parseRootLines("")).toEqual({ ok: true, items: [] });
  });

  it("drops duplicates, keeping the first, including a path and the URI of the same directory", () => {
    expect(parseRootLines("/a\n/b\n/a\nfile:///b\nfile:///my%20dir\n/my dir")).toEqual({
      ok: true,
      items: ["/a", "/b", "file:///my%20dir"],
    });
  });

  it.each(["relative/dir", "./here", "~/code", "https://example.test/", "C:\\Users\\me", "file:/tmp"])(
    "rejects %j with the engine's wording",
    (root) => {
      expect(parseRootLines(`/ok\n${root}`)).toEqual({
        ok: false,
        errors: [`the root \`${root}\` must be an absolute path or a file:// URI`],
      });
    },
  );

  it("reports every bad line, quoting it trimmed", () => {
    expect(parseRootLines("  one \n/fine\ntwo")).toEqual({
      ok: false,
      errors: [
        "the root `one` must be an absolute path or a file:// URI",
        "the root `two` must be an absolute path or a file:// URI",
      ],
    });
  });
});

describe("formatRootLines", () => {
  it("shows the engine's file:// URIs as plain paths, one per line", () => {
    expect(formatRootLines(["file:///home/me/project", "file:///home/me/my%20notes%23draft"])).toBe(
      "/home/me/project\n/home/me/my notes#draft",
    );
  });

  it("gives an empty field for no roots", () => {
    expect(formatRootLines([])).toBe("");
  });
});
