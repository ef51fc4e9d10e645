// Tests for the Audit page: empty state, the rows and their detail, filters and search calling
// the engine with the right arguments, the chain verified (intact, broken or unverified, with
// which rows are keyed and the head checkpoint's state) and the export.

import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { GatehouseError } from "../../api/GatehouseError";
import { auditRow, chainReport } from "../../test/auditFixtures";
import * as fake from "../../test/fakeGatehouse";
import { giveElementsASize, renderWithClient } from "../../test/renderWithClient";
import { AUDIT_PAGE, AuditPage } from "./AuditPage";

vi.mock("../../api/gatehouse", () => import("../../test/fakeGatehouse"));

let restoreSize: () => void;
beforeAll(() => {
  restoreSize = giveElementsASize();
});
afterAll(() => restoreSize());
beforeEach(() => fake.resetFakeGatehouse());

const ROWS = [
  auditRow(3, { kind: "call_finished", durationMs: 12, detail: { result: { content: [{ type: "text", text: "Echo: hi" }] } } }),
  auditRow(2, { kind: "call_started", detail: { arguments: { message: "hi" } } }),
  auditRow(1, { kind: "decision", decision: "allow", detail: { reason: "your own call", rule: null } }),
];

const lastListFilter = () => fake.auditList.mock.lastCall?.[0];

describe("AuditPage", () => {
  it("says that nothing was recorded yet", async () => {
    renderWithClient(<AuditPage />);
    expect(await screen.findByTestId("audit-empty")).toHaveTextContent("No audit rows yet");
    expect(fake.auditList).toHaveBeenCalledWith({
      since: null,
      until: null,
      server: null,
      tool: null,
      source: null,
      decision: null,
      outcome: null,
      client: null,
      limit: AUDIT_PAGE,
      offset: null,
    });
  });

  it("lists the rows and opens a row's redacted detail as JSON", async () => {
    fake.auditList.mockResolvedValue(ROWS);
    renderWithClient(<AuditPage />);
    const rows = await screen.findAllByTestId("audit-row");
    expect(rows.map((r) => r.dataset.seq)).toEqual(["3", "2", "1"]);
    expect(within(rows[0]!).getByText("ok")).toBeInTheDocument();
    expect(within(rows[0]!).getByText("12 ms")).toBeInTheDocument();
    expect(within(rows[2]!).getByText("allow")).toBeInTheDocument();
    expect(screen.getByTestId("audit-count")).toHaveTextContent("3 rows, newest first");

    await userEvent.click(rows[1]!);
    const sheet = await screen.findByTestId("audit-detail");
    expect(within(sheet).getByRole("heading", { name: "Row 2: call started" })).toBeInTheDocument();
    expect(JSON.parse(within(sheet).getByTestId("audit-detail-arguments").textContent ?? "")).toEqual({ message: "hi" });
    await userEvent.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByTestId("audit-detail")).toBeNull());
  });

  it("sends each filter to the engine's listing", async () => {
    renderWithClient(<AuditPage />);
    await screen.findByTestId("audit-empty");
    await userEvent.type(screen.getByLabelText("Server"), "everything");
    await userEvent.type(screen.getByLabelText("Tool"), "echo");
    await userEvent.selectOptions(screen.getByLabelText("Source"), "server");
    await userEvent.selectOptions(screen.getByLabelText("Decision"), "deny");
    await userEvent.selectOptions(screen.getByLabelText("Outcome"), "error");
    await waitFor(() =>
      expect(lastListFilter()).toMatchObject({ server: "everything", tool: "echo", source: "server", decision: "deny", outcome: "error" }),
    );
    expect(await screen.findByTestId("audit-no-match")).toBeInTheDocument();

    const since = screen.getByTestId("audit-since");
    await userEvent.type(since, "2026-11-23T10:30");
    await waitFor(() => expect(lastListFilter()?.since).toBe(new Date("2026-11-23T10:30").toISOString()));
    expect(lastListFilter()?.until).toBeNull();

    await userEvent.click(screen.getByRole("button", { name: "Clear the filters" }));
    await waitFor(() => expect(lastListFilter()).toMatchObject({ server: null, tool: null, source: null, since: null }));
  });

  it("searches the full text and narrows the hits by the filters", async () => {
    fake.auditSearch.mockResolvedValue([...ROWS, auditRow(0, { source: "server", tool: "sampleLLM" })]);
    renderWithClient(<AuditPage />);
    await screen.findByTestId("audit-empty");
    await userEvent.selectOptions(screen.getByLabelText("Source"), "user");
    await userEvent.type(screen.getByTestId("audit-search"), "hi echo");
    await waitFor(() => expect(fake.auditSearch).toHaveBeenCalledWith("hi echo", AUDIT_PAGE));
    const rows = await screen.findAllByTestId("audit-row");
    expect(rows.map((r) => r.dataset.seq)).toEqual(["3", "2", "1"]);
    expect(screen.getByTestId("audit-count")).toHaveTextContent("3 rows matching");
  });

  it("shows an intact chain with its row count, keyed, and the checkpoint matching", async () => {
    fake.auditVerify.mockResolvedValue(chainReport(12, { checkpoint: { state: "holds", seq: 10, newer: 2 } }));
    renderWithClient(<AuditPage />);
    await userEvent.click(screen.getByTestId("verify-chain"));
    const result = await screen.findByTestId("verify-result");
    expect(result).toHaveTextContent("Chain intact (12 rows): no row was changed or removed, every row keyed.");
    expect(result.dataset.state).toBe("intact");
    expect(result.dataset.keyed).toBe("keyed");
    expect(within(result).getByTestId("verify-details")).toHaveTextContent("Rows 1–12: keyed, checked with the key 0e369210f73adb9b from the OS keyring");
    expect(within(result).getByTestId("verify-checkpoint")).toHaveTextContent("Head checkpoint (OS keyring): row 10 is in the log as recorded (2 newer rows)");
  });

  it("says which rows are unkeyed, and never calls an unverified log intact", async () => {
    fake.auditVerify.mockResolvedValue(
      chainReport(9, {
        result: {
          state: "unverified",
          rows: 9,
          reason: "rows 6 to 9 are unkeyed, after keyed rows (row 5): written while the OS keyring was unavailable, or rewritten by someone without the key",
        },
        parts: [
          { from: 1, to: 5, kind: "keyed", keyId: "0e369210f73adb9b" },
          { from: 6, to: 9, kind: "unkeyed", keyId: null },
        ],
        checkpoint: { state: "holds", seq: 5, newer: 4 },
      }),
    );
    renderWithClient(<AuditPage />);
    await userEvent.click(screen.getByTestId("verify-chain"));
    const result = await screen.findByTestId("verify-result");
    expect(result.dataset.state).toBe("unverified");
    expect(result.dataset.keyed).toBe("not-keyed");
    expect(result).toHaveTextContent("Chain not verified: rows 6 to 9 are unkeyed");
    expect(result).not.toHaveTextContent("Chain intact");
    expect(within(result).getByTestId("verify-details")).toHaveTextContent("Rows 6–9: unkeyed — anyone who can write the database could have rewritten them");
  });

  it("names the rows the head checkpoint finds missing, and a keyring that cannot be reached", async () => {
    fake.auditVerify.mockResolvedValue(
      chainReport(3, {
        result: { state: "broken", seq: 4, reason: "rows 4 to 5 are missing (the log ends at row 3, but the head checkpoint records row 5)" },
        checkpoint: { state: "broken", seq: 4, reason: "rows 4 to 5 are missing (the log ends at row 3, but the head checkpoint records row 5)" },
      }),
    );
    renderWithClient(<AuditPage />);
    await userEvent.click(screen.getByTestId("verify-chain"));
    let result = await screen.findByTestId("verify-result");
    expect(result).toHaveTextContent("Chain broken at row 4: rows 4 to 5 are missing");
    expect(within(result).getByTestId("verify-checkpoint").dataset.state).toBe("broken");
    await userEvent.click(within(result).getByRole("button", { name: "Dismiss" }));

    fake.auditVerify.mockResolvedValue(
      chainReport(0, {
        key: { state: "unavailable", reason: "the OS keyring is not available" },
        checkpoint: { state: "unavailable", reason: "the OS keyring is not available" },
      }),
    );
    await userEvent.click(screen.getByTestId("verify-chain"));
    result = await screen.findByTestId("verify-result");
    expect(result).toHaveTextContent("Key: none at hand — the OS keyring is not available");
    expect(within(result).getByTestId("verify-checkpoint")).toHaveTextContent("not checked: the OS keyring is not available");
  });

  it("names the first broken row and opens it", async () => {
    fake.auditList.mockResolvedValue(ROWS);
    fake.auditVerify.mockResolvedValue(chainReport(3, { result: { state: "broken", seq: 2, reason: "its hash does not match its content" } }));
    renderWithClient(<AuditPage />);
    await screen.findAllByTestId("audit-row");
    await userEvent.click(screen.getByTestId("verify-chain"));
    const result = await screen.findByTestId("verify-result");
    expect(result).toHaveTextContent("Chain broken at row 2: its hash does not match its content");
    await userEvent.click(within(result).getByRole("button", { name: "Show row 2" }));
    expect(await screen.findByRole("heading", { name: "Row 2: call started" })).toBeInTheDocument();
  });

  it("names a broken row that is not listed, without offering to open it", async () => {
    fake.auditVerify.mockResolvedValue(chainReport(100, { result: { state: "broken", seq: 99, reason: "row 99 is missing (seq jumps from 98 to 100)" } }));
    renderWithClient(<AuditPage />);
    await screen.findByTestId("audit-empty");
    await userEvent.click(screen.getByTestId("verify-chain"));
    const result = await screen.findByTestId("verify-result");
    expect(result).toHaveTextContent("Chain broken at row 99: row 99 is missing");
    expect(within(result).queryByRole("button", { name: /Show row/ })).toBeNull();
  });

  it("says why the log could not be read, and tries again", async () => {
    fake.auditList.mockRejectedValueOnce(new GatehouseError("storage", "database is locked"));
    renderWithClient(<AuditPage />);
    expect(await screen.findByRole("alert")).toHaveTextContent("database is locked");
    await userEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByTestId("audit-empty")).toBeInTheDocument();
  });

  it("exports to the file given, and reports a path it cannot write", async () => {
    fake.auditExport.mockRejectedValueOnce(new GatehouseError("io", "cannot write /root-only/audit.csv: permission denied"));
    fake.auditExport.mockResolvedValueOnce({ rows: 3, path: "/tmp/audit.csv" });
    renderWithClient(<AuditPage />);
    await userEvent.click(screen.getByTestId("export-menu"));
    await userEvent.click(await screen.findByTestId("export-csv"));
    const path = await screen.findByTestId("export-path");
    await waitFor(() => expect(path).toHaveValue("~/gatehouse-audit.csv"));

    await userEvent.clear(path);
    await userEvent.type(path, "/root-only/audit.csv");
    await userEvent.click(screen.getByRole("button", { name: "Export" }));
    expect(await screen.findByTestId("export-error")).toHaveTextContent("cannot write /root-only/audit.csv: permission denied");
    expect(fake.auditExport).toHaveBeenLastCalledWith("csv", "/root-only/audit.csv");

    await userEvent.clear(path);
    await userEvent.type(path, "/tmp/audit.csv");
    await userEvent.click(screen.getByRole("button", { name: "Export" }));
    expect(await screen.findByTestId("export-done")).toHaveTextContent("Exported 3 rows to /tmp/audit.csv");
    expect(screen.queryByTestId("export-dialog")).toBeNull();
  });
});
