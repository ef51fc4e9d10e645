// The audit rows as a virtualised table (TanStack Table for the columns, TanStack Virtual for
// the rows): only the rows in view are in the DOM, so thousands scroll smoothly. A row opens
// its detail on click or Enter.

import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from "@tanstack/react-table";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useRef } from "react";
import type { AuditRow } from "../../api/gatehouse";
import { formatAuditTime, formatKind, rowOutcome } from "../../model/auditFilter";

type AuditTableProps = {
  rows: AuditRow[];
  onOpen: (row: AuditRow) => void;
};

const ROW_HEIGHT = 36;

const column = createColumnHelper<AuditRow>();

const COLUMNS = [
  column.accessor("at", { header: "Time", cell: (c) => <span title={c.getValue()}>{formatAuditTime(c.getValue())}</span> }),
  column.accessor("kind", { header: "Event", cell: (c) => formatKind(c.getValue()) }),
  column.accessor("server", { header: "Server", cell: (c) => c.getValue() ?? "" }),
  column.accessor((row) => row.tool ?? row.method ?? "", {
    id: "tool",
    header: "Tool / method",
    cell: (c) => <span className="mono">{c.getValue()}</span>,
  }),
  column.accessor("source", { header: "Source", cell: (c) => c.getValue() ?? "" }),
  column.accessor("decision", {
    header: "Decision",
    cell: (c) => {
      const decision = c.getValue();
      return decision === null ? "" : <span className={`pill pill-${decision}`}>{decision}</span>;
    },
  }),
  column.accessor(rowOutcome, {
    id: "outcome",
    header: "Outcome",
    cell: (c) => {
      const outcome = c.getValue();
      if (outcome === "") return "";
      return <span className={`pill ${outcome === "ok" ? "pill-allow" : "pill-deny"}`}>{outcome}</span>;
    },
  }),
  column.accessor("durationMs", {
    header: "Duration",
    cell: (c) => {
      const ms = c.getValue();
      return ms === null ? "" : `${ms} ms`;
    },
  }),
];

export function AuditTable({ rows, onOpen }: AuditTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // TanStack Table and Virtual return fresh functions each render by design; the React
  // Compiler must not memoise around them.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({ data: rows, columns: COLUMNS, getCoreRowModel: getCoreRowModel(), getRowId: (r) => String(r.seq) });
  const tableRows = table.getRowModel().rows;
  const virtualizer = useVirtualizer({
    count: tableRows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });

  return (
    <div className="audit-table" role="table" aria-label="Audit rows" aria-rowcount={rows.length + 1}>
      <div role="rowgroup" className="audit-table-head">
        {table.getHeaderGroups().map((group) => (
          <div role="row" key={group.id} className="audit-table-row">
            {group.headers.map((header) => (
              <div role="columnheader" key={header.id} className={`audit-cell audit-cell-${header.column.id}`}>
                {flexRender(header.column.columnDef.header, header.getContext())}
              </div>
            ))}
          </div>
        ))}
      </div>
      <div ref={scrollRef} className="audit-table-scroll" role="rowgroup" data-testid="audit-table-body">
        <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = tableRows[item.index];
            if (row === undefined) return null;
            return (
              <div
                role="row"
                key={row.id}
                aria-rowindex={item.index + 2}
                tabIndex={0}
                className="audit-table-row audit-table-row-body"
                data-testid="audit-row"
                data-seq={row.original.seq}
                data-kind={row.original.kind}
                data-tool={row.original.tool ?? undefined}
                data-method={row.original.method ?? undefined}
                data-source={row.original.source ?? undefined}
                data-decision={row.original.decision ?? undefined}
                data-outcome={rowOutcome(row.original) || undefined}
                style={{ position: "absolute", top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
                onClick={() => onOpen(row.original)}
                onKeyDown={(e) => {
                  if (e.key === "Enter" || e.key === " ") {
                    e.preventDefault();
                    onOpen(row.original);
                  }
                }}
              >
                {row.getVisibleCells().map((cell) => (
                  <div role="cell" key={cell.id} className={`audit-cell audit-cell-${cell.column.id}`}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </div>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
