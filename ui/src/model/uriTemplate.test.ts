// Tests for URI templates: the variables named, and expansion by operator with encoding.

import { describe, expect, it } from "vitest";
import { expandTemplate, templateVariables } from "./uriTemplate";

describe("uriTemplate", () => {
  it("names each variable once, in order", () => {
    expect(templateVariables("demo://resource/dynamic/text/{resourceId}")).toEqual(["resourceId"]);
    expect(templateVariables("file:///{+path}{?q,lang}{&q}")).toEqual(["path", "q", "lang"]);
    expect(templateVariables("x://{/a*,b:3}")).toEqual(["a", "b"]);
    expect(templateVariables("plain://uri")).toEqual([]);
  });

  it("expands simple, reserved, path and query expressions", () => {
    expect(expandTemplate("demo://r/{id}", { id: "a b/c" })).toBe("demo://r/a%20b%2Fc");
    expect(expandTemplate("file:///{+path}", { path: "home/me/a b.txt" })).toBe("file:///home/me/a%20b.txt");
    expect(expandTemplate("x://s{/a,b}", { a: "1", b: "2" })).toBe("x://s/1/2");
    expect(expandTemplate("x://s{?q,lang}", { q: "a&b", lang: "" })).toBe("x://s?q=a%26b");
    expect(expandTemplate("x://s/{id:2}", { id: "abcdef" })).toBe("x://s/ab");
    expect(expandTemplate("x://s/{id}", {})).toBe("x://s/");
  });
});
