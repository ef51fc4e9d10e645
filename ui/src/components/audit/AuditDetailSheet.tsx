// The detail of one audit row in a side sheet: who, what and how it ended, its place in the
// chain, and its redacted detail (arguments, result or reasons) as formatted JSON.

import type { ReactNode } from "react";
import type { AuditRow } from "../../api/gatehouse";
import type { Value } from "../../bindings";
import { formatAuditTime, formatKind, rowOutcome } from "../../model/auditFilter";
import { JsonView } from "../JsonView";
import { SideSheet } from "../SideSheet";

type AuditDetailSheetProps = {
  row: AuditRow;
  onClose: () => void;
};

/** The parts of a detail worth their own heading, in this order; the rest is shown whole. */
const SECTIONS = ["arguments", "content", "structuredContent", "result", "reason", "error"] as const;

const SECTION_TITLES: Record<(typeof SECTIONS)[number], string> = {
  arguments: "Arguments",
  content: "Result content",
  structuredContent: "Structured content",
  result: "Result",
  reason: "Reason",
  error: "Error",
};

export function AuditDetailSheet({ row, onClose }: AuditDetailSheetProps) {
  const detail = row.detail;
  const object = detail !== null && typeof detail === "object" && !Array.isArray(detail) ? detail : null;
  const sections = object === null ? [] : SECTIONS.filter((key) => key in object);
  const rest: Value =
    object === null ? detail : Object.fromEntries(Object.entries(object).filter(([key]) => !(SECTIONS as readonly string[]).includes(key)));
  const restEmpty = rest === null || (typeof rest === "object" && !Array.isArray(rest) && Object.keys(rest).length === 0);
  const outcome = rowOutcome(row);

  return (
    <SideSheet
      title={`Row ${row.seq}: ${formatKind(row.kind)}`}
      subtitle={formatAuditTime(row.at)}
      onClose={onClose}
      testId="audit-detail"
    >
      <dl className="detail-grid">
        <Field label="Server" value={row.server} />
        <Field label="Tool" value={row.tool} />
        <Field label="Method" value={row.method} mono />
        <Field label="Source" value={row.source} />
        <Field label="Decision" value={row.decision} />
        <Field label="Outcome" value={outcome || null} />
        <Field label="Duration" value={row.durationMs === null ? null : `${row.durationMs} ms`} />
        <Field label="Transport" value={row.transport} />
        <Field label="Request id" value={row.requestId} mono />
        <Field label="Correlation" value={row.correlation} mono />
        <Field label="Hash" value={row.hash} mono />
        <Field label="Previous hash" value={row.prevHash} mono />
      </dl>
      <p className="muted sheet-note">Secrets were redacted before this row was written.</p>
      {sections.map((key) => (
        <section key={key} className="sheet-section">
          <h3>{SECTION_TITLES[key]}</h3>
          <JsonView value={object?.[key]} testId={`audit-detail-${key}`} label={key} />
        </section>
      ))}
      {!restEmpty && (
        <section className="sheet-section">
          <h3>{sections.length > 0 ? "Other detail" : "Detail"}</h3>
          <JsonView value={rest} testId="audit-detail-rest" label="detail" />
        </section>
      )}
    </SideSheet>
  );
}

function Field({ label, value, mono = false }: { label: string; value: ReactNode; mono?: boolean }) {
  return (
    <>
      <dt>{label}</dt>
      <dd className={mono ? "mono break" : undefined}>{value ?? <span className="muted">—</span>}</dd>
    </>
  );
}
