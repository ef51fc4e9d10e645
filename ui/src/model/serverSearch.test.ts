// Tests for the Servers list's search: name, command line, URL and tool names, every word.

import { describe, expect, it } from "vitest";
import { connected, makeServer } from "../test/serverFixtures";
import { serverMatches } from "./serverSearch";

const stdio = makeServer("Files", connected(2), {
  kind: "stdio",
  command: "uvx",
  args: ["mcp-server-fs", "--root", "/home/ada/notes"],
  env: [],
  cwd: null,
  stop: { stdinMs: 2000, termMs: 3000 },
});
const http = makeServer("Linear", connected(1), { kind: "http", url: "https://mcp.linear.app/mcp", transport: "auto", headers: [] });
const matches = (view: typeof stdio, query: string, tools: string[] = []) => serverMatches(view, query, tools);

describe("serverMatches", () => {
  it("matches everything on an empty or blank query", () => {
    expect(matches(stdio, "")).toBe(true);
    expect(matches(http, "   ")).toBe(true);
  });

  it("matches the name without regard to case", () => {
    expect(matches(stdio, "fIlE")).toBe(true);
    expect(matches(http, "files")).toBe(false);
  });

  it("matches the command line and its arguments", () => {
    expect(matches(stdio, "uvx")).toBe(true);
    expect(matches(stdio, "ada/notes")).toBe(true);
    expect(matches(http, "uvx")).toBe(false);
  });

  it("matches an HTTP server's URL", () => {
    expect(matches(http, "linear.app")).toBe(true);
    expect(matches(stdio, "https://")).toBe(false);
  });

  it("matches a tool's name", () => {
    expect(matches(stdio, "write_file", ["read_file", "write_file"])).toBe(true);
    expect(matches(stdio, "write_file", ["read_file"])).toBe(false);
  });

  it("needs every word, each in any field", () => {
    expect(matches(stdio, "files write", ["write_file"])).toBe(true);
    expect(matches(stdio, "files delete", ["write_file"])).toBe(false);
  });
});
