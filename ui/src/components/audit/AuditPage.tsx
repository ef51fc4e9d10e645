// The Audit page: the audit log as a virtualised table, narrowed by filters or found by full-
// text search, each row's redacted detail in a side sheet, export to JSONL or CSV, and a check
// of the hash chain (also run on arriving with `?verify=1`, the command palette's action). The
// export menu is a Radix Dropdown Menu (the window's only menu).

import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { useSearchParams } from "react-router";
import type { AuditRow, ExportFormat, ExportSummary } from "../../api/gatehouse";
import * as api from "../../api/gatehouse";
import { errorMessage } from "../../api/GatehouseError";
import { useDebounced } from "../../hooks/useDebounced";
import type { AuditFilterValues } from "../../model/auditFilter";
import { EMPTY_AUDIT_FILTER, hasFilters, matchesFilter, toAuditFilter } from "../../model/auditFilter";
import { ErrorBanner } from "../ErrorBanner";
import { AuditDetailSheet } from "./AuditDetailSheet";
import { AuditFilters } from "./AuditFilters";
import { AuditTable } from "./AuditTable";
import { ExportDialog } from "./ExportDialog";
import { VerifyResult } from "./VerifyResult";

/** Rows fetched per page; "Show more" asks for another page. */
export const AUDIT_PAGE = 500;
/** The engine's most rows per listing. */
const MAX_ROWS = 10_000;

export function AuditPage() {
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<AuditFilterValues>(EMPTY_AUDIT_FILTER);
  const [search, setSearch] = useState("");
  const [limit, setLimit] = useState(AUDIT_PAGE);
  const [open, setOpen] = useState<AuditRow | null>(null);
  const [exporting, setExporting] = useState<ExportFormat | null>(null);
  const [exported, setExported] = useState<ExportSummary | null>(null);
  const text = useDebounced(search.trim(), 250);

  const filter = useMemo(() => toAuditFilter(filters, limit), [filters, limit]);
  const rows = useQuery({
    queryKey: ["audit", text === "" ? "list" : "search", text, filter],
    queryFn: async () => {
      if (text === "") return api.auditList(filter);
      const found = await api.auditSearch(text, limit);
      return found.filter((row) => matchesFilter(row, filter));
    },
    placeholderData: keepPreviousData,
  });
  const servers = useQuery({ queryKey: ["policy", "servers"], queryFn: api.policyServers });
  const verify = useMutation({ mutationFn: api.auditVerify });
  const [params, setParams] = useSearchParams();
  const verifyAsked = params.get("verify") === "1";
  const startVerify = verify.mutate;
  useEffect(() => {
    if (!verifyAsked) return;
    startVerify();
    setParams({}, { replace: true });
  }, [verifyAsked, startVerify, setParams]);

  const list = useMemo(() => rows.data ?? [], [rows.data]);
  const tools = useMemo(() => [...new Set(list.flatMap((r) => (r.tool === null ? [] : [r.tool])))].sort(), [list]);
  const serverNames = useMemo(() => (servers.data ?? []).map((s) => s.server), [servers.data]);
  const narrowed = hasFilters(filters) || text !== "";
  const changeFilters = (values: AuditFilterValues) => {
    setFilters(values);
    setLimit(AUDIT_PAGE);
  };
  const rowBySeq = (seq: number) => list.find((r) => r.seq === seq) ?? null;

  let content;
  if (rows.isPending) {
    content = <p className="muted page-loading">Loading the audit log…</p>;
  } else if (rows.isError && rows.data === undefined) {
    content = (
      <div className="empty-state" role="alert">
        <h2>Could not read the audit log</h2>
        <p>{errorMessage(rows.error)}</p>
        <button type="button" className="button" onClick={() => void rows.refetch()}>
          Try again
        </button>
      </div>
    );
  } else if (list.length === 0 && !narrowed) {
    content = (
      <div className="empty-state" data-testid="audit-empty">
        <h2>No audit rows yet</h2>
        <p>
          Every request that passes the gate is recorded here: what was asked, the decision, the call and its outcome, and
          connections and policy changes. Call a tool from the Servers page to see its rows.
        </p>
      </div>
    );
  } else if (list.length === 0) {
    content = (
      <div className="empty-state" data-testid="audit-no-match">
        <h2>No rows match</h2>
        <p>No audit row matches {text !== "" ? <>the search “{text}” and </> : null}these filters.</p>
        <button
          type="button"
          className="button"
          onClick={() => {
            changeFilters(EMPTY_AUDIT_FILTER);
            setSearch("");
          }}
        >
          Clear the filters
        </button>
      </div>
    );
  } else {
    content = (
      <>
        <AuditTable rows={list} onOpen={setOpen} />
        <div className="audit-footer muted">
          <span data-testid="audit-count">
            {list.length} {list.length === 1 ? "row" : "rows"}
            {narrowed ? " matching" : ""}, newest first
          </span>
          {rows.data?.length === limit && limit < MAX_ROWS && (
            <button type="button" className="button button-small" onClick={() => setLimit((n) => Math.min(n + AUDIT_PAGE, MAX_ROWS))}>
              Show more
            </button>
          )}
        </div>
      </>
    );
  }

  return (
    <section className="audit-page" aria-labelledby="audit-heading">
      <div className="page-toolbar">
        <h1 id="audit-heading">
          Audit log
          {rows.isFetching && !rows.isPending && <span className="muted page-updating"> Updating…</span>}
        </h1>
        <div className="toolbar-actions">
          <button type="button" className="button" onClick={() => void queryClient.invalidateQueries({ queryKey: ["audit"] })}>
            Refresh
          </button>
          <DropdownMenu.Root>
            <DropdownMenu.Trigger className="button" data-testid="export-menu">
              Export ▾
            </DropdownMenu.Trigger>
            <DropdownMenu.Portal>
              <DropdownMenu.Content className="menu" align="end" sideOffset={4}>
                <DropdownMenu.Item className="menu-item" onSelect={() => setExporting("jsonl")} data-testid="export-jsonl">
                  Export as JSONL…
                </DropdownMenu.Item>
                <DropdownMenu.Item className="menu-item" onSelect={() => setExporting("csv")} data-testid="export-csv">
                  Export as CSV…
                </DropdownMenu.Item>
              </DropdownMenu.Content>
            </DropdownMenu.Portal>
          </DropdownMenu.Root>
          <button
            type="button"
            className="button button-primary"
            onClick={() => verify.mutate()}
            disabled={verify.isPending}
            data-testid="verify-chain"
          >
            {verify.isPending ? "Verifying…" : "Verify chain"}
          </button>
        </div>
      </div>
      {verify.isSuccess && (
        <VerifyResult
          report={verify.data}
          onDismiss={() => verify.reset()}
          // The broken row can be opened when it is among the rows listed.
          onShowRow={verify.data.result.state === "broken" && rowBySeq(verify.data.result.seq) !== null ? (seq) => setOpen(rowBySeq(seq)) : null}
        />
      )}
      {verify.isError && <ErrorBanner message={`Could not verify the chain: ${errorMessage(verify.error)}`} onDismiss={() => verify.reset()} />}
      {exported !== null && (
        <div className="notice notice-success" role="status" data-testid="export-done">
          <span className="notice-text">
            Exported {exported.rows} {exported.rows === 1 ? "row" : "rows"} to <code>{exported.path}</code>.
          </span>
          <button type="button" className="button button-small" onClick={() => setExported(null)}>
            Dismiss
          </button>
        </div>
      )}
      {rows.isError && rows.data !== undefined && (
        <ErrorBanner message={`Could not refresh the audit log: ${errorMessage(rows.error)}`} onRetry={() => void rows.refetch()} />
      )}
      <AuditFilters values={filters} search={search} onChange={changeFilters} onSearch={setSearch} servers={serverNames} tools={tools} />
      {content}
      {open !== null && <AuditDetailSheet row={open} onClose={() => setOpen(null)} />}
      {exporting !== null && (
        <ExportDialog
          format={exporting}
          onClose={() => setExporting(null)}
          onDone={(summary) => {
            setExporting(null);
            setExported(summary);
          }}
        />
      )}
    </section>
  );
}
