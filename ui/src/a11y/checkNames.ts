// axe-core run on what a test rendered, limited to the rules jsdom can judge without layout:
// every control, link, field, dialog and image has an accessible name, and ARIA roles and
// attributes are valid where they are used. (Colour contrast needs rendering: contrast.test.ts
// checks the theme's colours instead.)

import axe from "axe-core";

/** The rules run: names, labels and roles. */
export const NAME_RULES = [
  "button-name",
  "link-name",
  "label",
  "select-name",
  "input-button-name",
  "image-alt",
  "svg-img-alt",
  "frame-title",
  "aria-command-name",
  "aria-input-field-name",
  "aria-toggle-field-name",
  "aria-dialog-name",
  "aria-progressbar-name",
  "aria-meter-name",
  "aria-tooltip-name",
  "aria-treeitem-name",
  "aria-roles",
  "aria-allowed-role",
  "aria-allowed-attr",
  "aria-required-attr",
  "aria-required-children",
  "aria-required-parent",
  "aria-valid-attr",
  "aria-valid-attr-value",
  "aria-prohibited-attr",
  "nested-interactive",
] as const;

/** Each violation as "rule: the element's HTML (its message)", for a readable failure. */
export async function nameViolations(root: Element = document.body): Promise<string[]> {
  const results = await axe.run(root, { runOnly: { type: "rule", values: [...NAME_RULES] }, resultTypes: ["violations"] });
  return results.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.html.slice(0, 200)} (${n.failureSummary ?? v.help})`));
}
