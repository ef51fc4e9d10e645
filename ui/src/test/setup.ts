// Vitest setup: Testing Library DOM matchers, automatic cleanup between tests, and the
// browser APIs jsdom lacks that Radix primitives use (Switch and RadioGroup to size themselves,
// Toast for swiping).

import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";

afterEach(() => {
  cleanup();
});

// jsdom does no layout, so nothing ever resizes: an observer that is never called is exact.
if (typeof globalThis.ResizeObserver === "undefined") {
  globalThis.ResizeObserver = class {
    observe(): void {
      // no layout in jsdom, so no size to report
    }
    unobserve(): void {
      // nothing observed
    }
    disconnect(): void {
      // nothing observed
    }
  };
}

// jsdom has no pointer capture; Radix Toast's swipe-to-dismiss asks for it on every click.
if (typeof Element.prototype.hasPointerCapture !== "function") {
  Element.prototype.hasPointerCapture = () => false;
  Element.prototype.setPointerCapture = () => undefined;
  Element.prototype.releasePointerCapture = () => undefined;
}
