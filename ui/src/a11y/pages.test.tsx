// Every page of the window, and the server detail with a tool's Call form, the add-server form
// and the command palette, checked with axe-core (names, labels and roles: see checkNames.ts):
// every interactive control has an accessible name.

import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { AppFrame } from "../App";
import { serverUrl } from "../components/palette/paletteEntries";
import { auditRow, ruleView } from "../test/auditFixtures";
import { setUpClients } from "../test/clientFixtures";
import * as fake from "../test/fakeGatehouse";
import { giveElementsASize, renderWithClient } from "../test/renderWithClient";
import { connected, httpSpecWithSecrets, makeServer, makeTool, stdioSpecWithSecrets } from "../test/serverFixtures";
import { nameViolations } from "./checkNames";

vi.mock("../api/gatehouse", () => import("../test/fakeGatehouse"));

const everything = makeServer("everything", connected(2), stdioSpecWithSecrets());
const remote = makeServer("remote", { state: "failed", message: "401" } as never, httpSpecWithSecrets());

beforeEach(() => {
  setUpClients();
  fake.listServers.mockResolvedValue([everything, remote]);
  fake.listTools.mockResolvedValue([makeTool("echo", { description: "Echoes" }), makeTool("add")]);
  fake.auditList.mockResolvedValue([auditRow(1), auditRow(2, { kind: "call_finished" })]);
  fake.policyRules.mockResolvedValue([ruleView("r1")]);
  fake.policyServers.mockResolvedValue([]);
});

async function expectNamed() {
  expect(await nameViolations()).toEqual([]);
}

describe("accessible names", () => {
  // Each page, its heading, and a text that shows once its data has loaded.
  const pages: [string, RegExp | string, RegExp | string][] = [
    ["/servers", /Servers/, "remote"],
    ["/approvals", "Approvals", /no requests|nothing|waiting/i],
    ["/audit", /Audit log/, /call_finished|finished/i],
    ["/policies", "Policies", /Policies/],
    ["/clients", "Clients", "cursor"],
    ["/settings", "Settings", /Start Gatehouse at login/],
  ];
  it.each(pages)("every control on %s has a name", async (path, heading, loaded) => {
    const restore = giveElementsASize();
    try {
      renderWithClient(<AppFrame />, path);
      await screen.findByRole("heading", { level: 1, name: heading });
      expect((await screen.findAllByText(loaded)).length).toBeGreaterThan(0);
      await expectNamed();
    } finally {
      restore();
    }
  });

  it("every control of the empty Servers page has a name", async () => {
    fake.listServers.mockResolvedValue([]);
    renderWithClient(<AppFrame />, "/servers");
    await screen.findByTestId("add-server-button");
    await expectNamed();
  });

  it("every control of a server's detail, with a tool's Call form open, has a name", async () => {
    renderWithClient(<AppFrame />, serverUrl(everything.config.id, "echo"));
    await screen.findByRole("heading", { level: 2, name: "everything" });
    // The form and its validator load on first use.
    await screen.findByTestId("tool-call-submit", {}, { timeout: 5000 });
    await expectNamed();
    await userEvent.click(screen.getByTestId("tab-logs"));
    await expectNamed();
  });

  it("every control of an HTTP server's detail and Sign-in tab has a name", async () => {
    renderWithClient(<AppFrame />, serverUrl(remote.config.id));
    await screen.findByRole("heading", { level: 2, name: "remote" });
    await userEvent.click(screen.getByTestId("tab-auth"));
    await expectNamed();
  });

  it("every control of the add-server form and of the command palette has a name", async () => {
    renderWithClient(<AppFrame />, "/servers?add=1");
    await screen.findByRole("dialog", { name: /Add server/ });
    await expectNamed();
    await userEvent.keyboard("{Escape}");
    await userEvent.keyboard("{Control>}k{/Control}");
    await screen.findByTestId("command-palette");
    await expectNamed();
  });
});
