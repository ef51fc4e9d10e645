// The Import step: pick an agent whose config files exist here (or in a project folder), see the
// preview of what importing its servers would do, resolve clashes, and import. The engine keeps
// the plan (with the secret values) and writes exactly the previewed one; the window only ever
// sees secrets masked. Nothing is written before "Import".

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import * as api from "../../api/gatehouse";
import type { Agent, ImportPreview, Written } from "../../api/gatehouse";
import { errorMessage } from "../../api/GatehouseError";
import { Dialog } from "../Dialog";
import { FormField } from "../FormField";
import { ImportPlanView } from "./ImportPlanView";
import { ProjectFolderField } from "./ProjectFolderField";

type ImportDialogProps = {
  onClose: () => void;
  /** After servers were written: the page reads its list again. */
  onImported: () => void;
};

type ClashChoice = "" | "skip" | "rename" | "replace";

export function ImportDialog({ onClose, onImported }: ImportDialogProps) {
  const [project, setProject] = useState("");
  const [projectApplied, setProjectApplied] = useState("");
  const [agent, setAgent] = useState<Agent | "">("");
  const [onClash, setOnClash] = useState<ClashChoice>("");
  // Values of the agent's inputs (VS Code asks for them when it starts a server): kept here
  // only until the dialog closes; a password input's value goes to the keyring.
  const [inputValues, setInputValues] = useState<Record<string, string>>({});
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [written, setWritten] = useState<Written[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const found = useQuery({
    queryKey: ["agents", "found", projectApplied],
    queryFn: () => api.agentsFound(projectApplied === "" ? null : projectApplied),
  });
  const agents = found.data ?? [];
  const chosen = agent !== "" ? agent : (agents[0]?.agent ?? "");

  const run = async (step: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await step();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const showPreview = (clash: ClashChoice = onClash) =>
    run(async () => {
      if (chosen === "") return;
      const inputs = Object.entries(inputValues)
        .filter(([, value]) => value !== "")
        .map(([id, value]) => ({ id, value }));
      setPreview(await api.importPreview(chosen, projectApplied === "" ? null : projectApplied, { onClash: clash === "" ? null : clash, skip: [], inputs }));
    });

  const confirm = () =>
    run(async () => {
      if (preview === null) return;
      setWritten(await api.importApply(preview.id));
      onImported();
    });

  const unresolved = preview?.plan.servers.filter((s) => s.action.kind === "unresolved").length ?? 0;
  const count = preview?.plan.servers.length ?? 0;

  if (written !== null) {
    const title = agents.find((a) => a.agent === chosen)?.title ?? chosen;
    return (
      <Dialog title="Imported" onClose={onClose} size="large" testId="import-dialog">
        <div className="form-body" data-testid="import-done">
          <p>
            {written.length} server{written.length === 1 ? "" : "s"} imported from {title}:
          </p>
          <ul>
            {written.map((w) => (
              <li key={w.serverId}>
                <strong>{w.name}</strong> {w.replaced ? "(replaced)" : ""} {w.secrets > 0 ? `· ${w.secrets} in the keyring` : ""}
              </li>
            ))}
          </ul>
          <p className="muted">
            Next, point {title} at Gatehouse so its calls pass your policy: <code>gatehouse connect {chosen}</code>.
          </p>
        </div>
        <div className="dialog-actions">
          <button type="button" className="button button-primary" onClick={onClose} data-autofocus>
            Done
          </button>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog title="Import servers from an agent" onClose={onClose} size="large" testId="import-dialog">
      <div className="form-body">
        <ProjectFolderField
          value={project}
          onChange={setProject}
          onApply={setProjectApplied}
          hint="Also read a project's own files (.mcp.json, .cursor/mcp.json, .vscode/mcp.json, …). Its full path."
          testId="import-project-input"
        />
        {found.isError && (
          <p className="form-error" role="alert">
            {errorMessage(found.error)}
          </p>
        )}
        {found.isSuccess && agents.length === 0 && (
          <p className="muted" data-testid="import-no-agents">
            No agent's MCP configuration was found{projectApplied !== "" ? " here or in that folder" : " on this machine"}.
          </p>
        )}
        {agents.length > 0 && (
          <FormField label="Agent">
            {(control) => (
              <select
                {...control}
                className="input"
                value={chosen}
                onChange={(e) => {
                  setAgent(e.target.value as Agent);
                  setPreview(null);
                }}
                data-testid="import-agent-select"
              >
                {agents.map((a) => (
                  <option key={a.agent} value={a.agent}>
                    {a.title}: {a.servers} server{a.servers === 1 ? "" : "s"}
                    {a.throughGatehouse > 0 ? " (already connected)" : ""}
                  </option>
                ))}
              </select>
            )}
          </FormField>
        )}
        {preview !== null && <ImportPlanView plan={preview.plan} />}
        {preview !== null && preview.plan.inputs.length > 0 && (
          <fieldset className="import-inputs" data-testid="import-inputs">
            <legend>Values the agent asks for when it starts a server</legend>
            {preview.plan.inputs.map((input) => (
              <FormField
                key={input.id}
                label={input.description ?? input.id}
                hint={input.given ? "Given; preview again after a change." : "Needed for the servers that use it; then preview again."}
              >
                {(control) => (
                  <input
                    {...control}
                    className="input"
                    type={input.password ? "password" : "text"}
                    autoComplete="off"
                    value={inputValues[input.id] ?? ""}
                    onChange={(e) => setInputValues((prev) => ({ ...prev, [input.id]: e.target.value }))}
                    data-testid={`import-input-${input.id}`}
                  />
                )}
              </FormField>
            ))}
          </fieldset>
        )}
        {(unresolved > 0 || onClash !== "") && preview !== null && (
          <FormField label="Servers whose names Gatehouse already has" hint="Choose, and the preview is made again.">
            {(control) => (
              <select
                {...control}
                className="input"
                value={onClash}
                onChange={(e) => {
                  const next = e.target.value as ClashChoice;
                  setOnClash(next);
                  void showPreview(next);
                }}
                data-testid="import-clash-select"
              >
                <option value="">Choose…</option>
                <option value="skip">Skip them</option>
                <option value="rename">Import them under a new name</option>
                <option value="replace">Replace Gatehouse's server</option>
              </select>
            )}
          </FormField>
        )}
        {error !== null && (
          <p className="form-error" role="alert" data-testid="import-error">
            {error}
          </p>
        )}
      </div>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="button" onClick={() => void showPreview()} disabled={busy || chosen === ""} data-testid="import-preview-button">
          {preview === null ? "Preview" : "Preview again"}
        </button>
        <button
          type="button"
          className="button button-primary"
          onClick={() => void confirm()}
          disabled={busy || preview === null || count === 0 || unresolved > 0}
          data-testid="import-confirm-button"
        >
          {busy ? "Working…" : `Import ${count} server${count === 1 ? "" : "s"}`}
        </button>
      </div>
    </Dialog>
  );
}
