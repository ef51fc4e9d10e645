// The Connect step: point an agent at Gatehouse. The preview shows the diff of the agent's
// config file (its secrets masked), the entries taken out because Gatehouse imported them, the
// entries kept, and the plaintext secrets still left in the file; "Write" changes the file
// (the original is kept, the engine refuses a file changed since the preview); "Undo" puts the
// file back as it was before the agent's latest connect.

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import * as api from "../../api/gatehouse";
import type { Agent, Applied, ConnectPreview, Undone } from "../../api/gatehouse";
import { errorMessage, GatehouseError } from "../../api/GatehouseError";
import { Dialog } from "../Dialog";
import { FormField } from "../FormField";
import { DiffView } from "./DiffView";
import { ProjectFolderField } from "./ProjectFolderField";

type ConnectDialogProps = {
  onClose: () => void;
  /** After a write or an undo: the page reads its clients again. */
  onChanged: () => void;
};

export function ConnectDialog({ onClose, onChanged }: ConnectDialogProps) {
  const [project, setProject] = useState("");
  const [projectApplied, setProjectApplied] = useState("");
  const [agent, setAgent] = useState<Agent | "">("");
  const [preview, setPreview] = useState<ConnectPreview | null>(null);
  const [applied, setApplied] = useState<Applied | null>(null);
  const [undone, setUndone] = useState<Undone | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [undoRefused, setUndoRefused] = useState(false);
  const [busy, setBusy] = useState(false);

  const found = useQuery({
    queryKey: ["agents", "found", projectApplied],
    queryFn: () => api.agentsFound(projectApplied === "" ? null : projectApplied),
  });
  const agents = (found.data ?? []).filter((a) => a.agent !== "registry");
  const chosen = agent !== "" ? agent : (agents[0]?.agent ?? "");
  const title = agents.find((a) => a.agent === chosen)?.title ?? chosen;
  const projectArg = projectApplied === "" ? null : projectApplied;

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

  const showPreview = () =>
    run(async () => {
      if (chosen === "") return;
      setApplied(null);
      setUndone(null);
      setPreview(await api.connectPreview(chosen, projectArg));
    });

  const write = () =>
    run(async () => {
      if (preview === null) return;
      setApplied(await api.connectApply(preview.id));
      setPreview(null);
      onChanged();
    });

  const undo = (force: boolean) => {
    setUndoRefused(false);
    return run(async () => {
      if (chosen === "") return;
      try {
        setUndone(await api.connectUndo(chosen, projectArg, force));
        setApplied(null);
        setPreview(null);
        onChanged();
      } catch (e) {
        // Refused because the file changed after the connect (`validation`); a backup that
        // does not open (`corrupt`) is not offered again.
        setUndoRefused(e instanceof GatehouseError && e.code === "validation");
        throw e;
      }
    });
  };

  const unchanged = preview !== null && preview.plan.diff.trim() === "";

  return (
    <Dialog title="Connect an agent to Gatehouse" onClose={onClose} size="large" testId="connect-dialog">
      <div className="form-body">
        <p className="muted">
          The agent's config file gets one <code>gatehouse</code> entry, so its calls pass your policy and approvals; the servers you imported
          from it leave the file. You see the change before it is written, and can undo it.
        </p>
        <ProjectFolderField
          value={project}
          onChange={(value) => {
            setProject(value);
            setUndoRefused(false);
          }}
          onApply={setProjectApplied}
          hint="Connect a project's own file (.mcp.json, .cursor/mcp.json, .vscode/mcp.json, …). Its full path."
          testId="connect-project-input"
        />
        {found.isSuccess && agents.length === 0 && (
          <p className="muted" data-testid="connect-no-agents">
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
                  setApplied(null);
                  setUndone(null);
                  setUndoRefused(false);
                }}
                data-testid="connect-agent-select"
              >
                {agents.map((a) => (
                  <option key={a.agent} value={a.agent}>
                    {a.title}
                    {a.throughGatehouse > 0 ? " (connected)" : ""}
                  </option>
                ))}
              </select>
            )}
          </FormField>
        )}
        {preview !== null && (
          <div className="connect-plan" data-testid="connect-plan">
            <p>
              <strong>{preview.plan.file}</strong>
              {preview.plan.section !== undefined && preview.plan.section !== null && ` (${preview.plan.section})`}
            </p>
            {unchanged ? (
              <p data-testid="connect-unchanged">{title} already reaches Gatehouse: nothing to change.</p>
            ) : (
              <DiffView diff={preview.plan.diff} />
            )}
            {preview.plan.removed.length > 0 && <p>Taken out (imported into Gatehouse): {preview.plan.removed.join(", ")}</p>}
            {preview.plan.kept.length > 0 && <p className="muted">Kept as they are: {preview.plan.kept.join(", ")}</p>}
            {preview.plan.plaintextSecretsLeft.length > 0 && (
              <p className="form-error" data-testid="connect-secrets-left">
                Gatehouse did not import these, so their secrets stay in the file in plain text:{" "}
                {preview.plan.plaintextSecretsLeft.map((s) => `${s.server} (${s.name})`).join(", ")}. Import them to move their secrets to the
                keyring.
              </p>
            )}
          </div>
        )}
        {applied !== null && (
          <div data-testid="connect-done">
            <p>
              {title} now reaches Gatehouse as the client <strong>{applied.client}</strong>
              {applied.clientAdded ? " (added)" : ""}
              {applied.servers.length > 0 ? `, with ${applied.servers.join(", ")}` : ""}.
            </p>
            <p className="muted">The original file is kept in {applied.backup}. Restart the agent to pick the change up.</p>
          </div>
        )}
        {undone !== null && (
          <p data-testid="connect-undone">
            {undone.file} is back as it was before the connect of {undone.connectedAt}
            {undone.forced ? " (its later changes are gone)" : ""}.
          </p>
        )}
        {error !== null && (
          <p className="form-error" role="alert" data-testid="connect-error">
            {error}
          </p>
        )}
      </div>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
        <button type="button" className="button" onClick={() => void undo(undoRefused)} disabled={busy || chosen === ""} data-testid="connect-undo-button">
          {undoRefused ? "Undo anyway" : "Undo last connect"}
        </button>
        <button type="button" className="button" onClick={() => void showPreview()} disabled={busy || chosen === ""} data-testid="connect-preview-button">
          {preview === null ? "Preview" : "Preview again"}
        </button>
        <button
          type="button"
          className="button button-primary"
          onClick={() => void write()}
          disabled={busy || preview === null || unchanged}
          data-testid="connect-write-button"
        >
          {busy ? "Working…" : "Write the change"}
        </button>
      </div>
    </Dialog>
  );
}
