// What the command palette offers, as data: every page, the servers and the tools the window
// knows, and the actions; where each leads (a URL of the window's router); and the query's
// results, grouped, the groups ordered by their best match and each group capped.

import type { ServerView, ToolInfo } from "../../api/gatehouse";
import type { ThemeChoice } from "../../hooks/useTheme";
import { type FuzzyMatch, rankMatches } from "./fuzzyMatch";

export type PaletteGroup = "Pages" | "Servers" | "Tools" | "Actions";

export type PaletteEntry = {
  /** Unique among the entries (the option's DOM id is made from it). */
  id: string;
  group: PaletteGroup;
  label: string;
  /** A second, dimmer line: the server of a tool, a page's purpose. */
  detail?: string;
  /** The text matched against the query (the label unless it says more). */
  text: string;
  /** Where choosing it leads, in the window's router. */
  to: string;
  /** A theme action: choosing it sets the theme and leads nowhere. */
  theme?: ThemeChoice;
};

export type PaletteResult = { entry: PaletteEntry; match: FuzzyMatch };
export type PaletteSection = { group: PaletteGroup; results: PaletteResult[] };

/** The most entries one group shows. */
export const GROUP_LIMIT = 8;

/** Where the Servers page opens a server, and (with `tool`) that tool's Call form. */
export function serverUrl(serverId: string, tool?: string): string {
  const params = new URLSearchParams({ server: serverId });
  if (tool !== undefined) params.set("tool", tool);
  return `/servers?${params.toString()}`;
}

/** The actions, as the URLs their pages act on. */
export const ACTIONS: readonly PaletteEntry[] = [
  { id: "action:add-server", group: "Actions", label: "Add server", text: "Add server new", to: "/servers?add=1" },
  { id: "action:verify-audit", group: "Actions", label: "Verify the audit chain", text: "Verify the audit chain", to: "/audit?verify=1" },
  { id: "action:approvals", group: "Actions", label: "Pending approvals", text: "Pending approvals requests waiting", to: "/approvals" },
  { id: "action:theme-dark", group: "Actions", label: "Theme: dark", text: "Theme dark mode", to: "", theme: "dark" },
  { id: "action:theme-light", group: "Actions", label: "Theme: light", text: "Theme light mode", to: "", theme: "light" },
  { id: "action:theme-system", group: "Actions", label: "Theme: follow the system", text: "Theme system automatic", to: "", theme: "system" },
];

export function pageEntries(pages: readonly { path: string; label: string }[]): PaletteEntry[] {
  return pages.map((page) => ({ id: `page:${page.path}`, group: "Pages", label: page.label, text: page.label, to: page.path }));
}

export function serverEntries(servers: readonly ServerView[]): PaletteEntry[] {
  return servers.map((s) => ({
    id: `server:${s.config.id}`,
    group: "Servers",
    label: s.config.name,
    detail: s.status.state,
    text: s.config.name,
    to: serverUrl(s.config.id),
  }));
}

/** The tools of each server whose list the window holds. */
export function toolEntries(lists: readonly { server: ServerView; tools: readonly ToolInfo[] }[]): PaletteEntry[] {
  return lists.flatMap(({ server, tools }) =>
    tools.map((tool) => ({
      id: `tool:${server.config.id}:${tool.name}`,
      group: "Tools" as const,
      label: tool.name,
      detail: server.config.name,
      text: `${tool.name} ${server.config.name}`,
      to: serverUrl(server.config.id, tool.name),
    })),
  );
}

const ORDER: readonly PaletteGroup[] = ["Pages", "Actions", "Servers", "Tools"];

/**
 * The entries matching `query`, grouped. With no query: the pages, the actions and the servers
 * (not every tool), in their own order. With one: each group's best matches, the group with the
 * best match first.
 */
export function searchPalette(query: string, entries: readonly PaletteEntry[]): PaletteSection[] {
  const empty = query.trim() === "";
  const sections: PaletteSection[] = [];
  for (const group of ORDER) {
    if (empty && group === "Tools") continue;
    const inGroup = entries.filter((e) => e.group === group);
    const results = rankMatches(query, inGroup, (e) => e.text).map(({ item, match }) => ({ entry: item, match }));
    if (results.length > 0) sections.push({ group, results: results.slice(0, GROUP_LIMIT) });
  }
  if (!empty) sections.sort((a, b) => (b.results[0]?.match.score ?? 0) - (a.results[0]?.match.score ?? 0));
  return sections;
}
