// Tests for what the palette lists: pages, actions and servers with no query (tools only when
// searched for), groups ordered by their best match, each group capped, and the URLs entries
// lead to.

import { describe, expect, it } from "vitest";
import { connected, makeServer, makeTool } from "../../test/serverFixtures";
import { ACTIONS, GROUP_LIMIT, pageEntries, searchPalette, serverEntries, serverUrl, toolEntries } from "./paletteEntries";

const PAGES = pageEntries([
  { path: "/servers", label: "Servers" },
  { path: "/audit", label: "Audit" },
  { path: "/settings", label: "Settings" },
]);
const everything = makeServer("everything", connected(2));
const ENTRIES = [
  ...PAGES,
  ...ACTIONS,
  ...serverEntries([everything]),
  ...toolEntries([{ server: everything, tools: [makeTool("echo"), makeTool("get-tiny-image")] }]),
];

const labels = (query: string) => searchPalette(query, ENTRIES).map((s) => [s.group, s.results.map((r) => r.entry.label)]);

describe("searchPalette", () => {
  it("lists the pages, the actions and the servers for an empty query, but no tools", () => {
    expect(labels("")).toEqual([
      ["Pages", ["Servers", "Audit", "Settings"]],
      ["Actions", ["Add server", "Verify the audit chain", "Pending approvals", "Theme: dark", "Theme: light", "Theme: follow the system"]],
      ["Servers", ["everything"]],
    ]);
  });

  it("finds a tool by its name or its server's, and puts the best group first", () => {
    expect(labels("echo")).toEqual([["Tools", ["echo"]]]);
    expect(searchPalette("tiny", ENTRIES)[0]?.results[0]?.entry.to).toBe(serverUrl(everything.config.id, "get-tiny-image"));
    expect(labels("every")[0]).toEqual(["Servers", ["everything"]]);
  });

  it("puts the page first for a page's name, with the action that mentions it after", () => {
    expect(labels("audit")).toEqual([
      ["Pages", ["Audit"]],
      ["Actions", ["Verify the audit chain"]],
    ]);
  });

  it("has no section at all when nothing matches", () => {
    expect(searchPalette("zzzz", ENTRIES)).toEqual([]);
  });

  it("shows at most GROUP_LIMIT entries of a group", () => {
    const many = serverEntries(Array.from({ length: GROUP_LIMIT + 5 }, (_, i) => makeServer(`e${i}`, connected(1))));
    expect(searchPalette("e", many)[0]?.results).toHaveLength(GROUP_LIMIT);
  });

  it("leads a server to its detail and a tool to its Call form, with names escaped", () => {
    expect(serverUrl("srv-1")).toBe("/servers?server=srv-1");
    expect(serverUrl("srv 1", "a&b")).toBe("/servers?server=srv+1&tool=a%26b");
  });
});
