// Tests for the pure pieces of the app panel: which links may be offered, which permissions reach
// the sandbox, display-mode answers, the style variables and the host context.

import { describe, expect, it } from "vitest";
import { makeTool } from "../test/serverFixtures";
import { answerDisplayModeRequest, viewAllows } from "./appDisplayMode";
import { buildHostContext, environmentLocale, inlineHeight, MAX_INLINE_HEIGHT, MIN_INLINE_HEIGHT } from "./appHostContext";
import { hostStyleVariables } from "./appHostStyles";
import { linkRefusal } from "./appLink";
import { agreedPermissions, declaredPermissions, permissionObjects } from "./appPermissions";

describe("linkRefusal", () => {
  it("offers only absolute http and https URLs", () => {
    expect(linkRefusal("https://example.com/a?b=c")).toBeNull();
    expect(linkRefusal("http://localhost:8080/")).toBeNull();
    for (const url of ["javascript:alert(1)", "JavaScript:alert(1)", "file:///etc/passwd", "data:text/html,x", "vbscript:x", "/relative", "gatehouse://x", ""]) {
      expect(linkRefusal(url), url).not.toBeNull();
    }
  });
});

describe("permissions", () => {
  const declared = { camera: true, microphone: true, geolocation: false, clipboardWrite: true };

  it("lists what a resource declares and passes on only what was both declared and agreed", () => {
    expect(declaredPermissions(declared)).toEqual(["camera", "microphone", "clipboardWrite"]);
    const agreed = agreedPermissions(declared, new Set(["camera", "geolocation"] as const));
    expect(agreed, "geolocation was agreed but never declared").toEqual({
      camera: true,
      microphone: false,
      geolocation: false,
      clipboardWrite: false,
    });
    expect(permissionObjects(agreed)).toEqual({ camera: {} });
    expect(permissionObjects(agreedPermissions(declared, new Set()))).toEqual({});
  });
});

describe("display modes", () => {
  it("switches only to a mode the host offers and the view declared", () => {
    expect(answerDisplayModeRequest("fullscreen", "inline", undefined)).toBe("fullscreen");
    expect(answerDisplayModeRequest("fullscreen", "inline", ["inline", "fullscreen"])).toBe("fullscreen");
    expect(answerDisplayModeRequest("fullscreen", "inline", ["inline"])).toBe("inline");
    expect(answerDisplayModeRequest("pip", "fullscreen", undefined), "pip is not offered").toBe("fullscreen");
    expect(viewAllows("inline", ["fullscreen"])).toBe(false);
  });
});

describe("host context", () => {
  it("maps the window's tokens to the standard variables, leaving out the ones without a value", () => {
    const tokens: Record<string, string> = { "--surface": " #fff ", "--text": "#111", "--font-sans": "system-ui" };
    const variables = hostStyleVariables((token) => tokens[token] ?? "");
    expect(variables["--color-background-primary"]).toBe("#fff");
    expect(variables["--color-text-primary"]).toBe("#111");
    expect(variables["--color-text-inverse"]).toBe("#fff");
    expect(variables["--font-sans"]).toBe("system-ui");
    expect("--color-border-primary" in variables).toBe(false);
  });

  it("gives a bounded height inline and a fixed area in fullscreen", () => {
    const base = {
      theme: "dark" as const,
      styles: hostStyleVariables(() => ""),
      container: { width: 700, height: 900 },
      tool: makeTool("show", { title: "Show it", inputSchema: { type: "object" } }),
      locale: "en-GB",
      timeZone: "Europe/London",
    };
    const inline = buildHostContext({ ...base, displayMode: "inline" });
    expect(inline).toMatchObject({
      theme: "dark",
      displayMode: "inline",
      availableDisplayModes: ["inline", "fullscreen"],
      containerDimensions: { width: 700, maxHeight: MAX_INLINE_HEIGHT },
      locale: "en-GB",
      timeZone: "Europe/London",
      platform: "desktop",
      toolInfo: { tool: { name: "show", title: "Show it", inputSchema: { type: "object" } } },
    });
    expect(buildHostContext({ ...base, displayMode: "fullscreen" }).containerDimensions).toEqual({ width: 700, height: 900 });
    expect(inlineHeight(5)).toBe(MIN_INLINE_HEIGHT);
    expect(inlineHeight(10_000)).toBe(MAX_INLINE_HEIGHT);
    expect(inlineHeight(321.4)).toBe(321);
  });

  it("gives a BCP 47 locale even where the webview reports the C locale", () => {
    expect(environmentLocale("en-gb").locale).toBe("en-GB");
    const fallback = environmentLocale("C").locale;
    expect(fallback).not.toBe("C");
    expect(Intl.getCanonicalLocales(fallback)).toEqual([fallback]);
    expect(environmentLocale("").locale).toBe(fallback);
  });
});
