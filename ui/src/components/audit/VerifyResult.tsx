// What "Verify chain" found: intact with the number of rows, or the first row that breaks the
// chain and how.

import type { VerifyReport } from "../../api/gatehouse";

type VerifyResultProps = {
  report: VerifyReport;
  onDismiss: () => void;
  /** Opens a row's detail; null when the broken row is not among those listed. */
  onShowRow: ((seq: number) => void) | null;
};

export function VerifyResult({ report, onDismiss, onShowRow }: VerifyResultProps) {
  const intact = report.state === "intact";
  return (
    <div className={`notice ${intact ? "notice-success" : "notice-danger"}`} role="status" data-testid="verify-result" data-state={report.state}>
      <span className="notice-text">
        {report.state === "intact" ? (
          <>
            <strong>Chain intact</strong> ({report.rows} {report.rows === 1 ? "row" : "rows"}): no row was changed or removed.
          </>
        ) : (
          <>
            <strong>Chain broken at row {report.seq}</strong>: {report.reason}
          </>
        )}
      </span>
      {report.state === "broken" && onShowRow !== null && (
        <button type="button" className="button button-small" onClick={() => onShowRow(report.seq)}>
          Show row {report.seq}
        </button>
      )}
      <button type="button" className="button button-small" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
