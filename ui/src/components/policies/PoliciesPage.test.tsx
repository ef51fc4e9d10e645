// Tests for the Policies page: empty states, stale rules marked with why, adding, editing and
// deleting rules, server defaults and read-only trust, and the definition history's diff.

import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { GatehouseError } from "../../api/GatehouseError";
import { definition, ruleView } from "../../test/auditFixtures";
import * as fake from "../../test/fakeGatehouse";
import { renderWithClient } from "../../test/renderWithClient";
import { PoliciesPage } from "./PoliciesPage";

vi.mock("../../api/gatehouse", () => import("../../test/fakeGatehouse"));

const SERVERS = [
  { serverId: "s-everything", server: "everything", trustReadOnly: false },
  { serverId: "s-files", server: "files", trustReadOnly: true },
];

const OLD = "a".repeat(64);
const NEW = "b".repeat(64);

beforeEach(() => {
  fake.resetFakeGatehouse();
  fake.policyServers.mockResolvedValue(SERVERS);
});

const ruleRow = (id: string) => {
  const row = screen.getAllByTestId("rule-row").find((r) => r.dataset.ruleId === id);
  if (row === undefined) throw new Error(`no row for rule ${id}`);
  return row;
};

describe("PoliciesPage", () => {
  it("says when there are no servers and no rules", async () => {
    fake.policyServers.mockResolvedValue([]);
    renderWithClient(<PoliciesPage />);
    expect(await screen.findByTestId("rules-empty")).toHaveTextContent("No rules");
    expect(screen.getByText(/No servers yet\. Add one on the Servers page/)).toBeInTheDocument();
  });

  it("marks a stale rule with why, and shows what changed", async () => {
    fake.policyRules.mockResolvedValue([
      ruleView("r-stale", { tool: "echo", decision: "allow", stale: true, definitionHash: OLD, currentDefinitionHash: NEW }),
      ruleView("r-fresh", { tool: "add", decision: "allow", definitionHash: NEW, currentDefinitionHash: NEW }),
    ]);
    fake.policyDefinitionHistory.mockResolvedValue([
      definition(NEW, {
        definition: { name: "echo", description: "Echoes and uploads your files", inputSchema: { type: "object" } },
        firstSeen: "2026-11-23T10:00:00.000Z",
        lastSeen: "2026-11-23T11:00:00.000Z",
      }),
      definition(OLD),
    ]);
    renderWithClient(<PoliciesPage />);
    await screen.findAllByTestId("rule-row");
    expect(screen.getByTestId("stale-count")).toHaveTextContent("1 stale");
    const note = within(ruleRow("r-stale")).getByTestId("stale-note");
    expect(note).toHaveTextContent(`allowed for definition ${"a".repeat(12)}`);
    expect(note).toHaveTextContent(`now shows ${"b".repeat(12)}`);
    expect(note).toHaveTextContent("allows nothing until it is renewed");
    expect(within(ruleRow("r-fresh")).queryByTestId("stale-note")).toBeNull();

    await userEvent.click(within(note).getByRole("button", { name: "Show what changed" }));
    const diff = await screen.findByTestId("definition-diff");
    expect(fake.policyDefinitionHistory).toHaveBeenCalledWith("s-everything", null);
    const fields = within(diff).getAllByTestId("diff-field");
    expect(fields.map((f) => f.dataset.field)).toEqual(["description"]);
    expect(within(fields[0]!).getByLabelText("description before")).toHaveTextContent("Echoes back the input");
    expect(within(fields[0]!).getByLabelText("description after")).toHaveTextContent("Echoes and uploads your files");
    expect(diff).toHaveTextContent("Unchanged: name, inputSchema.");
  });

  it("adds an argument rule with what was entered", async () => {
    fake.policyAddRule.mockResolvedValue({
      id: "r-new",
      server: "s-files",
      tool: "write_file",
      argument: null,
      effect: "deny",
      definitionHash: null,
    });
    renderWithClient(<PoliciesPage />);
    await userEvent.click(await screen.findByTestId("add-rule"));
    const dialog = screen.getByRole("dialog", { name: "Add rule" });
    await userEvent.selectOptions(within(dialog).getByTestId("rule-server"), "s-files");
    await userEvent.type(within(dialog).getByTestId("rule-tool"), "write_file");
    await userEvent.click(within(dialog).getByTestId("rule-with-argument"));
    await userEvent.type(within(dialog).getByTestId("rule-pointer"), "/path");
    await userEvent.type(within(dialog).getByTestId("rule-pattern"), "~/projects/**");
    await userEvent.click(within(dialog).getByTestId("rule-outside"));
    await userEvent.click(within(dialog).getByRole("radio", { name: "Deny" }));
    const listed = fake.policyRules.mock.calls.length;
    await userEvent.click(within(dialog).getByTestId("rule-save"));

    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(fake.policyAddRule).toHaveBeenCalledWith({
      server: "s-files",
      tool: "write_file",
      argument: { pointer: "/path", pattern: { kind: "glob", pattern: "~/projects/**" }, outside: true },
      decision: "deny",
      source: null,
      client: null,
    });
    await waitFor(() => expect(fake.policyRules.mock.calls.length).toBeGreaterThan(listed));
  });

  it("keeps the dialog open with the engine's message when a rule is refused", async () => {
    fake.policyAddRule.mockRejectedValue(new GatehouseError("validation", "invalid regex `[`: unclosed character class"));
    renderWithClient(<PoliciesPage />);
    await userEvent.click(await screen.findByTestId("add-rule"));
    const dialog = screen.getByRole("dialog", { name: "Add rule" });
    await userEvent.type(within(dialog).getByTestId("rule-tool"), "echo");
    await userEvent.click(within(dialog).getByTestId("rule-with-argument"));
    await userEvent.type(within(dialog).getByTestId("rule-pointer"), "/message");
    await userEvent.selectOptions(within(dialog).getByTestId("rule-pattern-kind"), "regex");
    await userEvent.type(within(dialog).getByTestId("rule-pattern"), "[[");
    await userEvent.click(within(dialog).getByTestId("rule-save"));
    expect(await within(dialog).findByTestId("rule-error")).toHaveTextContent("invalid regex `[`: unclosed character class");
    expect(screen.getByRole("dialog", { name: "Add rule" })).toBeInTheDocument();
  });

  it("shows the source a rule is for and adds one for a single source", async () => {
    fake.policyRules.mockResolvedValue([
      ruleView("r-apps", { tool: "send_email", decision: "allow", source: "app" }),
      ruleView("r-all", { tool: "echo", decision: "deny" }),
    ]);
    fake.policyAddRule.mockResolvedValue({ id: "r-new", server: "s-files", tool: null, argument: null, effect: "deny", definitionHash: null, source: "model" });
    renderWithClient(<PoliciesPage />);
    await screen.findAllByTestId("rule-row");
    expect(within(ruleRow("r-apps")).getByTestId("rule-source")).toHaveTextContent("app");
    expect(within(ruleRow("r-all")).getByTestId("rule-source")).toHaveTextContent("every source");
    await userEvent.click(screen.getByTestId("add-rule"));
    const dialog = screen.getByRole("dialog", { name: "Add rule" });
    await userEvent.selectOptions(within(dialog).getByTestId("rule-server"), "s-files");
    await userEvent.selectOptions(within(dialog).getByTestId("rule-source"), "model");
    await userEvent.click(within(dialog).getByRole("radio", { name: "Deny" }));
    await userEvent.click(within(dialog).getByTestId("rule-save"));
    await waitFor(() =>
      expect(fake.policyAddRule).toHaveBeenCalledWith({ server: "s-files", tool: null, argument: null, decision: "deny", source: "model", client: null }),
    );
  });

  it("shows the client a rule is for, and adds one for a single agent through the gateway", async () => {
    fake.policyRules.mockResolvedValue([
      ruleView("r-cursor", { tool: "write_file", decision: "deny", source: "gateway", client: "cursor" }),
      ruleView("r-agents", { tool: "write_file", decision: "ask", source: "gateway" }),
    ]);
    fake.policyAddRule.mockResolvedValue({ id: "r-new", server: "s-files", tool: null, argument: null, effect: "allow", definitionHash: null, source: "gateway", client: "claude-code" });
    renderWithClient(<PoliciesPage />);
    await screen.findAllByTestId("rule-row");
    expect(within(ruleRow("r-cursor")).getByTestId("rule-source")).toHaveTextContent("gateway");
    expect(within(ruleRow("r-cursor")).getByTestId("rule-client")).toHaveTextContent("client cursor");
    expect(within(ruleRow("r-agents")).queryByTestId("rule-client")).toBeNull();

    await userEvent.click(screen.getByTestId("add-rule"));
    const dialog = screen.getByRole("dialog", { name: "Add rule" });
    expect(within(dialog).queryByTestId("rule-client")).toBeNull();
    await userEvent.selectOptions(within(dialog).getByTestId("rule-server"), "s-files");
    await userEvent.selectOptions(within(dialog).getByTestId("rule-source"), "gateway");
    await userEvent.type(within(dialog).getByTestId("rule-client"), " claude-code ");
    await userEvent.click(within(dialog).getByRole("radio", { name: "Allow" }));
    await userEvent.click(within(dialog).getByTestId("rule-save"));
    await waitFor(() =>
      expect(fake.policyAddRule).toHaveBeenCalledWith({ server: "s-files", tool: null, argument: null, decision: "allow", source: "gateway", client: "claude-code" }),
    );
  });

  it("edits a client's rule keeping its client, and drops the client when the source is no longer the gateway", async () => {
    fake.policyRules.mockResolvedValue([ruleView("r-1", { tool: "echo", decision: "deny", source: "gateway", client: "cursor" })]);
    fake.policyAddRule.mockResolvedValue({ id: "r-2", server: "s-everything", tool: "echo", argument: null, effect: "ask", definitionHash: null });
    fake.policyRemoveRule.mockResolvedValue(null);
    renderWithClient(<PoliciesPage />);
    await screen.findAllByTestId("rule-row");
    await userEvent.click(screen.getByRole("button", { name: "Edit rule r-1" }));
    const dialog = screen.getByRole("dialog", { name: "Edit rule" });
    expect(within(dialog).getByTestId("rule-client")).toHaveValue("cursor");
    await userEvent.click(within(dialog).getByRole("radio", { name: "Ask" }));
    await userEvent.click(within(dialog).getByTestId("rule-save"));
    await waitFor(() => expect(fake.policyRemoveRule).toHaveBeenCalledWith("r-1"));
    expect(fake.policyAddRule).toHaveBeenLastCalledWith({ server: "s-everything", tool: "echo", argument: null, decision: "ask", source: "gateway", client: "cursor" });

    await userEvent.click(screen.getByRole("button", { name: "Edit rule r-1" }));
    const again = screen.getByRole("dialog", { name: "Edit rule" });
    await userEvent.selectOptions(within(again).getByTestId("rule-source"), "app");
    expect(within(again).queryByTestId("rule-client")).toBeNull();
    await userEvent.click(within(again).getByTestId("rule-save"));
    await waitFor(() =>
      expect(fake.policyAddRule).toHaveBeenLastCalledWith({ server: "s-everything", tool: "echo", argument: null, decision: "deny", source: "app", client: null }),
    );
  });

  it("deletes a rule after confirmation", async () => {
    fake.policyRules.mockResolvedValue([ruleView("r-1", { tool: "echo", decision: "deny" })]);
    fake.policyRemoveRule.mockResolvedValue(null);
    renderWithClient(<PoliciesPage />);
    await screen.findAllByTestId("rule-row");
    await userEvent.click(screen.getByRole("button", { name: "Delete rule r-1" }));
    const confirm = screen.getByRole("alertdialog", { name: "Delete this rule?" });
    expect(confirm).toHaveTextContent("deny for everything · echo");
    await userEvent.click(within(confirm).getByTestId("confirm-delete-rule"));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(fake.policyRemoveRule).toHaveBeenCalledWith("r-1");
  });

  it("edits a rule by adding the changed one and then removing the old, keeping its source", async () => {
    fake.policyRules.mockResolvedValue([ruleView("r-1", { tool: "echo", decision: "deny", source: "app" })]);
    fake.policyAddRule.mockResolvedValue({ id: "r-2", server: "s-everything", tool: "echo", argument: null, effect: "ask", definitionHash: null });
    fake.policyRemoveRule.mockResolvedValue(null);
    renderWithClient(<PoliciesPage />);
    await screen.findAllByTestId("rule-row");
    await userEvent.click(screen.getByRole("button", { name: "Edit rule r-1" }));
    const dialog = screen.getByRole("dialog", { name: "Edit rule" });
    expect(within(dialog).getByTestId("rule-tool")).toHaveValue("echo");
    expect(within(dialog).getByRole("radio", { name: "Deny" })).toBeChecked();
    expect(within(dialog).getByTestId("rule-source")).toHaveValue("app");
    await userEvent.click(within(dialog).getByRole("radio", { name: "Ask" }));
    await userEvent.click(within(dialog).getByTestId("rule-save"));
    await waitFor(() => expect(fake.policyRemoveRule).toHaveBeenCalledWith("r-1"));
    expect(fake.policyAddRule).toHaveBeenCalledWith({ server: "s-everything", tool: "echo", argument: null, decision: "ask", source: "app", client: null });
    const addOrder = fake.policyAddRule.mock.invocationCallOrder[0] ?? Infinity;
    const removeOrder = fake.policyRemoveRule.mock.invocationCallOrder[0] ?? -Infinity;
    expect(addOrder).toBeLessThan(removeOrder);
  });

  it("sets a server's default and its read-only trust", async () => {
    fake.policyRules.mockResolvedValue([ruleView("r-1", { decision: "deny" })]);
    fake.policySetServerDefault.mockResolvedValue(null);
    fake.policySetTrustReadOnly.mockResolvedValue(null);
    renderWithClient(<PoliciesPage />);
    const everything = await screen.findByLabelText("Default for everything");
    expect(everything).toHaveValue("deny");
    expect(screen.getByLabelText("Default for files")).toHaveValue("");

    await userEvent.selectOptions(screen.getByLabelText("Default for files"), "allow");
    await waitFor(() => expect(fake.policySetServerDefault).toHaveBeenCalledWith("s-files", "allow"));
    await userEvent.selectOptions(everything, "");
    await waitFor(() => expect(fake.policySetServerDefault).toHaveBeenCalledWith("s-everything", null));

    const trust = screen.getByRole("switch", { name: "Trust read-only hints of everything" });
    expect(trust).toHaveAttribute("aria-checked", "false");
    await userEvent.click(trust);
    await waitFor(() => expect(fake.policySetTrustReadOnly).toHaveBeenCalledWith("s-everything", true));
    await userEvent.click(screen.getByRole("switch", { name: "Trust read-only hints of files" }));
    await waitFor(() => expect(fake.policySetTrustReadOnly).toHaveBeenCalledWith("s-files", false));
  });

  it("says why the policy could not be read", async () => {
    fake.policyRules.mockRejectedValue(new GatehouseError("storage", "database is locked"));
    renderWithClient(<PoliciesPage />);
    expect(await screen.findByRole("alert")).toHaveTextContent("database is locked");
  });

  it("lists the app sites, adds a domain to a list, removes one, and shows a refusal", async () => {
    fake.appSites.mockResolvedValue({ allow: ["example.com"], block: ["tracker.example.net"] });
    renderWithClient(<PoliciesPage />);
    const rows = await screen.findAllByTestId("app-site");
    expect(rows.map((r) => [r.dataset.domain, r.dataset.list])).toEqual([
      ["tracker.example.net", "block"],
      ["example.com", "allow"],
    ]);

    fake.appSiteAdd.mockResolvedValue({ allow: ["example.com"], block: ["ads.example.com", "tracker.example.net"] });
    await userEvent.type(screen.getByTestId("app-site-domain"), " ads.example.com ");
    await userEvent.click(screen.getByTestId("app-site-add"));
    expect(fake.appSiteAdd).toHaveBeenCalledExactlyOnceWith("block", "ads.example.com");
    await waitFor(() => expect(screen.getByTestId("app-site-domain")).toHaveValue(""));

    fake.appSiteAdd.mockRejectedValue(new GatehouseError("validation", "`*.x` is not a domain"));
    await userEvent.selectOptions(screen.getByTestId("app-site-list"), "allow");
    await userEvent.type(screen.getByTestId("app-site-domain"), "*.x");
    await userEvent.click(screen.getByTestId("app-site-add"));
    expect(fake.appSiteAdd).toHaveBeenLastCalledWith("allow", "*.x");
    expect(await screen.findByText(/Could not change the app sites: `\*\.x` is not a domain/)).toBeInTheDocument();
    expect(screen.getByTestId("app-site-domain")).toHaveValue("*.x");

    fake.appSiteRemove.mockResolvedValue({ allow: [], block: [] });
    fake.appSites.mockResolvedValue({ allow: [], block: [] });
    await userEvent.click(screen.getByRole("button", { name: "Remove example.com" }));
    expect(fake.appSiteRemove).toHaveBeenCalledExactlyOnceWith("example.com");
    expect(await screen.findByTestId("app-sites-empty")).toHaveTextContent("apps may reach the sites they declare");
  });
});
