// Tests for where an app view's webview goes: the visible part of its panel, shifted into the
// view, and hidden under the window's dialogs or when nothing of it shows.
import { describe, expect, it } from "vitest";
import { HIDDEN, placementOf, samePlacement } from "./viewPlacement";

const window = { left: 0, top: 0, right: 1200, bottom: 800 };
const belowHeader = { left: 0, top: 60, right: 1200, bottom: 800 };

describe("placementOf", () => {
  it("shows the whole view when all of it is in sight", () => {
    expect(placementOf({ left: 100, top: 200, right: 700, bottom: 520 }, [window, belowHeader], false)).toEqual({
      visible: true,
      x: 100,
      y: 200,
      width: 600,
      height: 320,
      viewWidth: 600,
      viewHeight: 320,
      offsetX: 0,
      offsetY: 0,
    });
  });

  it("shows only the part below the header, shifted so the view does not move under it", () => {
    const placement = placementOf({ left: 100, top: 20, right: 700, bottom: 620 }, [window, belowHeader], false);
    expect(placement).toMatchObject({ visible: true, y: 60, height: 560, viewHeight: 600, offsetY: 40, offsetX: 0 });
  });

  it("shows only the part inside the window and every scrolling box", () => {
    const scroller = { left: 50, top: 100, right: 650, bottom: 500 };
    const placement = placementOf({ left: 0, top: 400, right: 800, bottom: 1000 }, [window, scroller], false);
    expect(placement).toMatchObject({ x: 50, y: 400, width: 600, height: 100, offsetX: 50, offsetY: 0, viewWidth: 800 });
  });

  it("hides the view under a dialog, or when nothing of it shows", () => {
    const view = { left: 100, top: 200, right: 700, bottom: 520 };
    expect(placementOf(view, [window], true), "a dialog or menu of the window is open").toEqual(HIDDEN);
    expect(placementOf({ left: 100, top: 900, right: 700, bottom: 1200 }, [window], false), "scrolled out").toEqual(HIDDEN);
    expect(placementOf({ left: 0, top: 0, right: 0, bottom: 0 }, [window], false), "a hidden panel").toEqual(HIDDEN);
  });
});

describe("samePlacement", () => {
  it("works in whole pixels, and tells apart any move", () => {
    const a = placementOf({ left: 100.4, top: 200, right: 700.2, bottom: 520 }, [window], false);
    expect(a).toMatchObject({ x: 100, width: 600, viewWidth: 600 });
    expect(samePlacement(a, placementOf({ left: 100.2, top: 200.3, right: 700, bottom: 520 }, [window], false))).toBe(true);
    expect(samePlacement(a, { ...a, y: 201 })).toBe(false);
    expect(samePlacement(HIDDEN, { ...HIDDEN, x: 5 })).toBe(true);
    expect(samePlacement(a, HIDDEN)).toBe(false);
  });
});
