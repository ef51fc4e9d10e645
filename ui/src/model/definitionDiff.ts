// The difference between two definitions of a tool, field by field: for each top-level field
// (description, schemas, annotations, …) the value before and after, and whether it changed.
// The Policies page's definition history shows it for the two definitions selected.

import type { Value } from "../bindings";

export type FieldChange = {
  field: string;
  before: Value | undefined;
  after: Value | undefined;
  changed: boolean;
};

/** Fields in the order a person reads them; any others follow alphabetically. */
const ORDER = ["name", "title", "description", "inputSchema", "outputSchema", "annotations", "execution", "icons", "_meta"];

function fields(value: Value): Record<string, Value> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? value : {};
}

/** JSON text with object keys sorted, so key order is no difference. */
export function canonicalJson(value: Value | undefined): string {
  if (value === undefined) return "undefined";
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(",")}}`;
}

export function diffDefinitions(before: Value, after: Value): FieldChange[] {
  const a = fields(before);
  const b = fields(after);
  const names = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  const rank = (name: string) => {
    const i = ORDER.indexOf(name);
    return i === -1 ? ORDER.length : i;
  };
  names.sort((x, y) => rank(x) - rank(y) || x.localeCompare(y));
  return names.map((field) => ({
    field,
    before: a[field],
    after: b[field],
    changed: canonicalJson(a[field]) !== canonicalJson(b[field]),
  }));
}
