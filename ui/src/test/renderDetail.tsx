// Renders the server detail of a made-up server with spy handlers, for the detail's tests.

import { vi } from "vitest";
import type { ServerSpec, ServerStatus } from "../api/gatehouse";
import { ServerDetail } from "../components/ServerDetail";
import { renderWithClient } from "./renderWithClient";
import { makeServer } from "./serverFixtures";

export function renderDetail(status: ServerStatus, spec?: ServerSpec, roots: string[] = [], name = "everything") {
  const view = makeServer(name, status, spec, roots);
  const handlers = {
    onReconnect: vi.fn(),
    onStop: vi.fn(),
    onStart: vi.fn(),
    onEnable: vi.fn(),
    onEdit: vi.fn(),
    onClose: vi.fn(),
  };
  const result = renderWithClient(<ServerDetail view={view} busy={false} {...handlers} />);
  return { view, handlers, ...result };
}
