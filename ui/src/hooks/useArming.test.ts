// What counts as typing for the approval dialog: keys in an input, a textarea, a select or an
// editable element are never answers.

import { describe, expect, it } from "vitest";
import { isTextField } from "./useArming";

describe("isTextField", () => {
  it("takes inputs, textareas, selects and editable elements as text fields", () => {
    const editable = document.createElement("div");
    editable.setAttribute("contenteditable", "true");
    const inside = document.createElement("span");
    editable.appendChild(inside);
    const plain = document.createElement("div");
    plain.setAttribute("contenteditable", "false");
    for (const field of [document.createElement("input"), document.createElement("textarea"), document.createElement("select"), editable, inside]) {
      expect(isTextField(field)).toBe(true);
    }
    for (const other of [document.createElement("button"), plain, document.createElement("div"), null]) {
      expect(isTextField(other)).toBe(false);
    }
  });
});
