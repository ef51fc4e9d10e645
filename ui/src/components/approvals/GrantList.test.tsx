// The standing grants on the Approvals page: listed with how long each holds, and revoked.

import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Grant } from "../../api/gatehouse";
import * as fake from "../../test/fakeGatehouse";
import { renderWithClient } from "../../test/renderWithClient";
import { ApprovalPromptProvider } from "./ApprovalPromptContext";
import { ApprovalsPage } from "./ApprovalsPage";

vi.mock("../../api/gatehouse", () => import("../../test/fakeGatehouse"));

beforeEach(() => fake.resetFakeGatehouse());

const grant: Grant = {
  id: "g-1",
  serverId: "s-1",
  server: "fs",
  tool: "write_file",
  definitionHash: "h",
  source: "app",
  caller: null,
  rule: null,
  covers: "these",
  scope: "timed",
  expiresAt: "2026-11-23T11:00:00.000Z",
  createdAt: "2026-11-23T10:00:00.000Z",
  pid: null,
};

describe("GrantList", () => {
  it("lists the grants with what each covers, and revokes one", async () => {
    fake.listGrants.mockResolvedValueOnce([grant]).mockResolvedValue([]);
    fake.revokeGrant.mockResolvedValue(grant);
    renderWithClient(
      <ApprovalPromptProvider>
        <ApprovalsPage />
      </ApprovalPromptProvider>,
    );
    const row = await screen.findByTestId("grant-row");
    expect(row).toHaveTextContent("write_file");
    expect(row).toHaveTextContent("until");
    expect(row).toHaveTextContent("app: the arguments it was given for");
    await userEvent.click(screen.getByTestId("revoke-grant"));
    expect(fake.revokeGrant).toHaveBeenCalledWith("g-1");
    await waitFor(() => expect(screen.getByTestId("no-grants")).toBeInTheDocument());
  });
});
