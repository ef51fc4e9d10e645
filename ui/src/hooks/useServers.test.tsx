// Tests for the server list on TanStack Query: a status event that arrives while the list is
// being fetched survives the (older) list, and a status for an unknown server re-fetches it.

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ServerView } from "../api/gatehouse";
import * as fake from "../test/fakeGatehouse";
import { connected, makeServer } from "../test/serverFixtures";
import { useServers } from "./useServers";

vi.mock("../api/gatehouse", () => import("../test/fakeGatehouse"));

beforeEach(() => fake.resetFakeGatehouse());

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

describe("useServers", () => {
  it("re-applies a status event that arrived while the list was in flight", async () => {
    const server = makeServer("everything", { state: "connecting" });
    let answer: (list: ServerView[]) => void = () => undefined;
    fake.listServers.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    const { result } = renderHook(() => useServers(), { wrapper });
    expect(result.current.loaded).toBe(false);

    await act(() => Promise.resolve(fake.emitStatus({ id: server.config.id, status: connected(4) })));
    await act(() => Promise.resolve(answer([server])));
    await waitFor(() => expect(result.current.loaded).toBe(true));
    expect(result.current.servers[0]?.status).toEqual(connected(4));
  });

  it("re-fetches the list when a server it does not know reports a status", async () => {
    const known = makeServer("known", connected(1));
    const added = makeServer("added", { state: "connecting" });
    fake.listServers.mockResolvedValueOnce([known]).mockResolvedValue([known, added]);
    const { result } = renderHook(() => useServers(), { wrapper });
    await waitFor(() => expect(result.current.servers).toHaveLength(1));

    await act(() => Promise.resolve(fake.emitStatus({ id: added.config.id, status: connected(2) })));
    await waitFor(() => expect(result.current.servers.map((s) => s.config.name)).toEqual(["known", "added"]));
    expect(fake.listServers).toHaveBeenCalledTimes(2);
  });
});
