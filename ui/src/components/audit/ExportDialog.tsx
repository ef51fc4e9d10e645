// Exporting the audit log: the file to write (prefilled with a suggestion), written whole or
// not at all by the engine; a path it cannot write is reported here, in the engine's words.

import { useMutation, useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import type { ExportFormat, ExportSummary } from "../../api/gatehouse";
import * as api from "../../api/gatehouse";
import { errorMessage } from "../../api/GatehouseError";
import { Dialog } from "../Dialog";

type ExportDialogProps = {
  format: ExportFormat;
  onDone: (summary: ExportSummary) => void;
  onClose: () => void;
};

const LABELS: Record<ExportFormat, string> = { jsonl: "JSONL", csv: "CSV" };

export function ExportDialog({ format, onDone, onClose }: ExportDialogProps) {
  const fieldId = useId();
  const suggestion = useQuery({
    queryKey: ["audit", "export-suggestion", format],
    queryFn: () => api.auditExportSuggestion(format),
    staleTime: Infinity,
  });
  const [typed, setTyped] = useState<string | null>(null);
  const path = typed ?? suggestion.data ?? "";
  const exporting = useMutation({
    mutationFn: () => api.auditExport(format, path),
    onSuccess: onDone,
  });

  return (
    <Dialog title={`Export the audit log as ${LABELS[format]}`} onClose={onClose} testId="export-dialog">
      <form
        className="server-form"
        onSubmit={(e) => {
          e.preventDefault();
          exporting.mutate();
        }}
      >
        <div className="form-body">
          <div className="field">
          <label htmlFor={fieldId} className="field-label">
            File
          </label>
          <input
            id={fieldId}
            className="input mono"
            value={path}
            onChange={(e) => setTyped(e.target.value)}
            placeholder={`~/gatehouse-audit.${format}`}
            data-autofocus
            data-testid="export-path"
            spellCheck={false}
          />
          <p className="field-hint muted">
            A full path, or one starting with <code>~/</code> for your home folder. Every row is written, oldest first; an
            existing file is replaced only once the export is complete.
          </p>
          </div>
          {exporting.isError && (
            <p className="form-error" role="alert" data-testid="export-error">
              {errorMessage(exporting.error)}
            </p>
          )}
        </div>
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={exporting.isPending || path.trim() === ""}>
            {exporting.isPending ? "Exporting…" : "Export"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
