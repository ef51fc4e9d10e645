// What "Verify chain" found: intact with the number of rows, the first row that breaks the
// chain and how, or what cannot be vouched for; then which stretches of rows are keyed (checked
// with the audit key), unkeyed (anyone who can write the database could rewrite them) or keyed
// with a key not at hand, and whether the head checkpoint kept in the OS keyring matches.

import type { ChainPart, ChainReport, CheckpointStatus, KeyStatus } from "../../api/gatehouse";

type VerifyResultProps = {
  report: ChainReport;
  onDismiss: () => void;
  /** Opens a row's detail; null when the broken row is not among those listed. */
  onShowRow: ((seq: number) => void) | null;
};

const TONE = { intact: "notice-success", broken: "notice-danger", unverified: "notice-warning" } as const;

function span(part: ChainPart): string {
  return part.from === part.to ? `Row ${part.from}` : `Rows ${part.from}–${part.to}`;
}

function partText(part: ChainPart, key: KeyStatus): string {
  switch (part.kind) {
    case "keyed":
      return `${span(part)}: keyed, checked with the key ${part.keyId ?? ""}${key.state === "file" ? " from the key file" : " from the OS keyring"}`;
    case "unkeyed":
      return `${span(part)}: unkeyed — anyone who can write the database could have rewritten them`;
    case "unchecked":
      return `${span(part)}: keyed with the key ${part.keyId ?? ""}, which is not at hand — only their links were checked`;
  }
}

export function checkpointText(status: CheckpointStatus): string {
  switch (status.state) {
    case "holds":
      return `row ${status.seq} is in the log as recorded (${status.newer} newer ${status.newer === 1 ? "row" : "rows"})`;
    case "broken":
      return `broken at row ${status.seq}: ${status.reason}`;
    case "none":
      return "none kept yet";
    case "notAuthentic":
      return `not authentic: ${status.reason}`;
    case "unavailable":
      return `not checked: ${status.reason}`;
  }
}

export function VerifyResult({ report, onDismiss, onShowRow }: VerifyResultProps) {
  const result = report.result;
  const keyed = report.parts.length > 0 && report.parts.every((p) => p.kind === "keyed");
  return (
    <div className={`notice ${TONE[result.state]}`} role="status" data-testid="verify-result" data-state={result.state} data-keyed={keyed ? "keyed" : "not-keyed"}>
      <div className="notice-text">
        {result.state === "intact" && (
          <>
            <strong>Chain intact</strong> ({result.rows} {result.rows === 1 ? "row" : "rows"}): no row was changed or removed
            {keyed ? ", every row keyed." : "."}
          </>
        )}
        {result.state === "broken" && (
          <>
            <strong>Chain broken at row {result.seq}</strong>: {result.reason}
          </>
        )}
        {result.state === "unverified" && (
          <>
            <strong>Chain not verified</strong>: {result.reason}
          </>
        )}
        <ul className="notice-details" data-testid="verify-details">
          {report.parts.map((part) => (
            <li key={part.from} data-kind={part.kind}>
              {partText(part, report.key)}
            </li>
          ))}
          {report.moreParts && <li>…and more stretches</li>}
          {report.key.state === "missing" && <li>Key: the OS keyring holds none for this data directory</li>}
          {report.key.state === "unavailable" && <li>Key: none at hand — {report.key.reason}</li>}
          <li data-testid="verify-checkpoint" data-state={report.checkpoint.state}>
            Head checkpoint (OS keyring): {checkpointText(report.checkpoint)}
          </li>
        </ul>
      </div>
      {result.state === "broken" && onShowRow !== null && (
        <button type="button" className="button button-small" onClick={() => onShowRow(result.seq)}>
          Show row {result.seq}
        </button>
      )}
      <button type="button" className="button button-small" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
