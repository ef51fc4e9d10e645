// Vitest setup: Testing Library DOM matchers, automatic cleanup between tests, and the one
// browser API jsdom lacks that Radix primitives (Switch, RadioGroup) use to size themselves.

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
