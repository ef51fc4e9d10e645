// Tests for showing a root's file:// URI as a plain path, and for the URIs left as they are.

import { describe, expect, it } from "vitest";
import { rootUriToPath } from "./rootUriToPath";

describe("rootUriToPath", () => {
  it.each([
    ["file:///home/me/project", "/home/me/project"],
    ["file:///", "/"],
    ["file:///tmp/my%20dir/", "/tmp/my dir/"],
    ["file:///srv/caf%C3%A9/100%25", "/srv/café/100%"],
  ])("turns %j into the path %j", (uri, path) => {
    expect(rootUriToPath(uri)).toBe(path);
  });

  it.each([
    ["a file URI with a host", "file://server/share"],
    ["another scheme", "https://example.test/dir"],
    ["a query", "file:///tmp/x?y=1"],
    ["a malformed escape", "file:///tmp/%zz"],
    ["an encoded line break", "file:///tmp/a%0Ab"],
    ["a Windows drive", "file:///C:/Users/me"],
    ["a plain path", "/already/a/path"],
  ])("keeps %s as it is", (_what, uri) => {
    expect(rootUriToPath(uri)).toBe(uri);
  });
});
