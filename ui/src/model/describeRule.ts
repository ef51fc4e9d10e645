// Words for a policy rule: what it applies to, its argument condition, and why a stale rule
// is stale.

import type { ArgumentMatch, RuleView } from "../api/gatehouse";

/** A hash shortened for reading: its first 12 hex digits. */
export function shortHash(hash: string): string {
  return hash.slice(0, 12);
}

/** "/path outside glob ~/projects/**", "/n matches regex [0-9]+". */
export function describeArgument(argument: ArgumentMatch): string {
  const relation = argument.outside === true ? "outside" : "matches";
  return `${argument.pointer} ${relation} ${argument.pattern.kind} ${argument.pattern.pattern}`;
}

/** The layer a rule sits in, as the evaluation order names it. */
export function ruleLayer(rule: RuleView): "argument" | "tool" | "server" | "global" {
  if (rule.tool !== null && rule.argument !== null) return "argument";
  if (rule.tool !== null) return "tool";
  if (rule.serverId !== null) return "server";
  return "global";
}

/** Why a stale rule allows nothing, or null for a rule that is not stale. */
export function staleReason(rule: RuleView): string | null {
  if (!rule.stale) return null;
  const from = rule.definitionHash === null ? "another definition" : shortHash(rule.definitionHash);
  const to = rule.currentDefinitionHash === null ? "a new one" : shortHash(rule.currentDefinitionHash);
  return (
    `The tool changed since this rule was made: it was allowed for definition ${from}, and the server now ` +
    `shows ${to}. The rule allows nothing until it is renewed; until then the tool is asked about.`
  );
}
