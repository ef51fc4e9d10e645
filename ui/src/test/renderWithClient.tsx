// Renders a page as the app does: inside a fresh TanStack Query client (no retries, so a
// failure shows at once) and a router at `path`.

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactElement } from "react";
import { MemoryRouter } from "react-router";

export function renderWithClient(ui: ReactElement, path = "/") {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } } });
  const result = render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...result, client };
}

/** Gives every element a size, so a virtualised list renders its rows under jsdom. */
export function giveElementsASize(width = 1200, height = 800): () => void {
  const originals = {
    clientHeight: Object.getOwnPropertyDescriptor(HTMLElement.prototype, "clientHeight"),
    clientWidth: Object.getOwnPropertyDescriptor(HTMLElement.prototype, "clientWidth"),
  };
  Object.defineProperty(HTMLElement.prototype, "clientHeight", { configurable: true, get: () => height });
  Object.defineProperty(HTMLElement.prototype, "clientWidth", { configurable: true, get: () => width });
  return () => {
    for (const [key, descriptor] of Object.entries(originals)) {
      if (descriptor !== undefined) Object.defineProperty(HTMLElement.prototype, key, descriptor);
    }
  };
}
