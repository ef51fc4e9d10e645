// The main page: server list (or empty state), detail pane for the selected server,
// and the add/edit and remove dialogs. The selected server is URL state (`?server=ID`, with
// `&tool=NAME` for a tool's Call form, see ToolItem), and `?add=1` opens the add dialog, so the
// command palette can lead here.

import { useQuery } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useSearchParams } from "react-router";
import * as api from "../api/gatehouse";
import type { ServerConfig, ServerInput, ServerView } from "../api/gatehouse";
import { errorMessage } from "../api/GatehouseError";
import { useServers } from "../hooks/useServers";
import { emptyFormValues, formValuesFromConfig } from "../model/serverFormValues";
import type { ServerFormValues } from "../model/serverFormValues";
import { ImportDialog } from "./agents/ImportDialog";
import { ConfirmRemoveDialog } from "./ConfirmRemoveDialog";
import { EmptyState } from "./EmptyState";
import { ErrorBanner } from "./ErrorBanner";
import { FirstRunHint } from "./FirstRunHint";
import { ServerDetail } from "./ServerDetail";
import { ServerFormDialog } from "./ServerFormDialog";
import { ServerList } from "./ServerList";

type FormDialogState = { mode: "add" } | { mode: "edit"; config: ServerConfig } | null;

export function ServersPage() {
  const { servers, loaded, loadError, refresh, save, remove, setEnabled, reconnect, stop, start } = useServers();
  const [params, setParams] = useSearchParams();
  // Kept here too, so a selection shows in the same render as what caused it (the URL follows
  // in a transition), and taken from the URL whenever that changes (the palette, Back).
  const urlServer = params.get("server");
  const [selectedId, setSelected] = useState(urlServer);
  const [seenUrlServer, setSeenUrlServer] = useState(urlServer);
  if (urlServer !== seenUrlServer) {
    setSeenUrlServer(urlServer);
    setSelected(urlServer);
  }
  const setSelectedId = useCallback(
    (id: string | null) => {
      setSelected(id);
      setParams(id === null ? {} : { server: id });
    },
    [setParams],
  );
  const [formDialog, setFormDialog] = useState<FormDialogState>(null);
  const [removing, setRemoving] = useState<ServerView | null>(null);
  const [importing, setImporting] = useState(false);
  const [busyIds, setBusyIds] = useState<ReadonlySet<string>>(() => new Set());
  const [actionError, setActionError] = useState<string | null>(null);
  const [demo, setDemo] = useState<"adding" | "added" | null>(null);
  // New servers get the engine's default stop graces (Settings); the form's own until read.
  const settings = useQuery({ queryKey: ["settings", "engine"], queryFn: () => api.engineSettings() });

  const selected = servers.find((s) => s.config.id === selectedId) ?? null;
  const openAdd = () => setFormDialog({ mode: "add" });
  // The add dialog is open while the URL asks for it (`?add=1`) or the person opened a form.
  const addAsked = params.get("add") === "1";
  const shownForm: FormDialogState = formDialog ?? (addAsked ? { mode: "add" } : null);
  const closeForm = () => {
    setFormDialog(null);
    if (addAsked) setSelectedId(selectedId);
  };
  const addValues = (): ServerFormValues => {
    const values = emptyFormValues();
    if (settings.data === undefined) return values;
    return { ...values, stopGrace: String(settings.data.stopStdinMs / 1000), termGrace: String(settings.data.stopTermMs / 1000) };
  };

  // The first run's demo server: added, selected, its echo tool's Call form opened once listed.
  const tryDemo = async () => {
    setDemo("adding");
    setActionError(null);
    try {
      const view = await api.addDemoServer();
      await refresh();
      // Selected with its echo tool's Call form open (it opens once the tool is listed).
      setSelected(view.config.id);
      setParams({ server: view.config.id, tool: "echo" });
      setDemo("added");
    } catch (e) {
      setDemo(null);
      setActionError(`Could not add the demo server: ${errorMessage(e)}`);
    }
  };
  const openEdit = (config: ServerConfig) => setFormDialog({ mode: "edit", config });

  // Toggle/reconnect: mark the row busy, report failures in the page banner.
  const runAction = async (id: string, action: () => Promise<unknown>) => {
    setBusyIds((prev) => new Set(prev).add(id));
    setActionError(null);
    try {
      await action();
    } catch (e) {
      setActionError(errorMessage(e));
    } finally {
      setBusyIds((prev) => {
        const next = new Set(prev);
        next.delete(id);
        return next;
      });
    }
  };

  const submitForm = async (input: ServerInput) => {
    const id = shownForm?.mode === "edit" ? shownForm.config.id : null;
    const view = await save(id, input);
    setFormDialog(null);
    setSelectedId(view.config.id);
  };

  const confirmRemove = async (id: string) => {
    await remove(id);
    setRemoving(null);
    if (selectedId === id) setSelectedId(null);
  };

  let content;
  if (!loaded) {
    content = <p className="muted page-loading">Loading servers…</p>;
  } else if (servers.length === 0 && loadError !== null) {
    content = (
      <div className="empty-state" role="alert">
        <h2>Could not load servers</h2>
        <p>{loadError}</p>
        <button type="button" className="button" onClick={() => void refresh()}>
          Try again
        </button>
      </div>
    );
  } else if (servers.length === 0) {
    content = <EmptyState onAdd={openAdd} onImport={() => setImporting(true)} onDemo={() => void tryDemo()} demoBusy={demo === "adding"} />;
  } else {
    content = (
      <div className="master-detail">
        <ServerList
          servers={servers}
          selectedId={selectedId}
          busyIds={busyIds}
          onSelect={setSelectedId}
          onToggle={(view, enabled) => void runAction(view.config.id, () => setEnabled(view.config.id, enabled))}
          onEdit={(view) => openEdit(view.config)}
          onRemove={setRemoving}
        />
        {selected !== null ? (
          <ServerDetail
            view={selected}
            busy={busyIds.has(selected.config.id)}
            onReconnect={() => void runAction(selected.config.id, () => reconnect(selected.config.id))}
            onStop={() => void runAction(selected.config.id, () => stop(selected.config.id))}
            onStart={() => void runAction(selected.config.id, () => start(selected.config.id))}
            onEnable={() => void runAction(selected.config.id, () => setEnabled(selected.config.id, true))}
            onEdit={() => openEdit(selected.config)}
            onClose={() => setSelectedId(null)}
          />
        ) : (
          <div className="detail-placeholder">
            <p className="muted">Select a server to see its status and tools.</p>
          </div>
        )}
      </div>
    );
  }

  return (
    <section className="servers-page" aria-labelledby="servers-heading">
      <div className="page-toolbar">
        <h1 id="servers-heading">
          Servers{servers.length > 0 && <span className="count">{servers.length}</span>}
        </h1>
        <div className="page-toolbar-actions">
          <button type="button" className="button" onClick={() => setImporting(true)} data-testid="import-button">
            Import from an agent
          </button>
          <button type="button" className="button button-primary" onClick={openAdd} data-testid="add-server-button">
            Add server
          </button>
        </div>
      </div>
      {actionError !== null && <ErrorBanner message={actionError} onDismiss={() => setActionError(null)} />}
      {loadError !== null && servers.length > 0 && (
        <ErrorBanner message={`Could not refresh the server list: ${loadError}`} onRetry={() => void refresh()} />
      )}
      {demo === "added" && <FirstRunHint onDismiss={() => setDemo(null)} />}
      {content}
      {shownForm !== null && (
        <ServerFormDialog
          mode={shownForm.mode}
          initialValues={shownForm.mode === "edit" ? formValuesFromConfig(shownForm.config) : addValues()}
          onSubmit={submitForm}
          onClose={closeForm}
        />
      )}
      {importing && <ImportDialog onClose={() => setImporting(false)} onImported={() => void refresh()} />}
      {removing !== null && (
        <ConfirmRemoveDialog
          serverName={removing.config.name}
          onConfirm={() => confirmRemove(removing.config.id)}
          onClose={() => setRemoving(null)}
        />
      )}
    </section>
  );
}
