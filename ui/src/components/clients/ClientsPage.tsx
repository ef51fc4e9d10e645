// The Clients page: the gateway's HTTP endpoint, the agents Gatehouse serves as a gateway, by
// name (token yes/no and when made, last seen, naming choice), adding and removing one, and the
// chosen client's detail or the default profile; connecting an agent (its config pointed at
// Gatehouse, see agents/ConnectDialog).

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import type { FormEvent } from "react";
import * as api from "../../api/gatehouse";
import { errorMessage } from "../../api/GatehouseError";
import { ConnectDialog } from "../agents/ConnectDialog";
import { ErrorBanner } from "../ErrorBanner";
import { ClientDetail } from "./ClientDetail";
import { useClients, useRefreshClients } from "./clientQueries";
import { ConfirmAction } from "../ConfirmAction";
import { DefaultProfileDetail } from "./DefaultProfileDetail";
import { HttpEndpointPanel } from "./HttpEndpointPanel";

/** The selection that is the default profile rather than a client (no client name is empty). */
const DEFAULT_PROFILE = "";

export function ClientsPage() {
  const clients = useClients();
  const refresh = useRefreshClients();
  const [selected, setSelected] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const [connecting, setConnecting] = useState(false);
  const [name, setName] = useState("");
  const add = useMutation({
    mutationFn: (n: string) => api.clientsAdd(n),
    onSuccess: (record) => {
      setName("");
      setSelected(record.name);
    },
    onSettled: refresh,
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim() !== "") add.mutate(name.trim());
  };

  let content;
  if (clients.isPending) {
    content = <p className="muted page-loading">Loading the clients…</p>;
  } else if (clients.error !== null) {
    content = (
      <div className="empty-state" role="alert">
        <h2>Could not read the clients</h2>
        <p>{errorMessage(clients.error)}</p>
        <button type="button" className="button" onClick={() => void clients.refetch()}>
          Try again
        </button>
      </div>
    );
  } else if (clients.data.length === 0) {
    content = (
      <div className="empty-state empty-state-compact" data-testid="clients-empty">
        <h3>No clients</h3>
        <p>An agent Gatehouse does not know is served the default profile. Add a client to give an agent its own.</p>
      </div>
    );
  } else {
    content = (
      <table className="policy-table clients-table" aria-label="Clients">
        <thead>
          <tr>
            <th scope="col">Client</th>
            <th scope="col">Connected</th>
            <th scope="col">Token</th>
            <th scope="col">Last seen</th>
            <th scope="col">Names</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {clients.data.map((client) => (
            <tr
              key={client.name}
              data-testid="client-row"
              data-client-name={client.name}
              className={client.name === selected ? "client-row-selected" : undefined}
            >
              <th scope="row">
                <button type="button" className="link-button" onClick={() => setSelected(client.name)} aria-pressed={client.name === selected}>
                  {client.name}
                </button>
              </th>
              <td data-testid="client-connected">
                {client.connected === null
                  ? "No"
                  : `Now: ${client.connected.sessions} session${client.connected.sessions === 1 ? "" : "s"}, since ${client.connected.since}`}
              </td>
              <td>{client.has_token ? `Yes, made ${client.token_created_at ?? "?"}` : "No"}</td>
              <td>{client.last_seen ?? "Never over HTTP"}</td>
              <td>{client.prefix ? "Always SERVER__NAME" : "Bare where unique"}</td>
              <td>
                <button type="button" className="button button-small" onClick={() => setRemoving(client.name)} aria-label={`Remove ${client.name}`}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    );
  }

  return (
    <section className="clients-page" aria-labelledby="clients-heading">
      <div className="page-toolbar">
        <h1 id="clients-heading">Clients</h1>
        <form className="client-add" onSubmit={submit}>
          <input
            className="input input-compact"
            aria-label="New client's name"
            placeholder="Client name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            data-testid="client-name-input"
          />
          <button type="submit" className="button button-primary" disabled={add.isPending || name.trim() === ""} data-testid="add-client">
            Add client
          </button>
        </form>
        <button
          type="button"
          className="button"
          onClick={() => setSelected(DEFAULT_PROFILE)}
          aria-pressed={selected === DEFAULT_PROFILE}
          data-testid="open-default-profile"
        >
          Default profile
        </button>
        <button type="button" className="button" onClick={() => setConnecting(true)} data-testid="connect-agent-button">
          Connect an agent
        </button>
      </div>
      <HttpEndpointPanel />
      {add.error !== null && <ErrorBanner message={`Could not add the client: ${errorMessage(add.error)}`} onDismiss={() => add.reset()} />}
      <section className="policy-section" aria-label="Client list">
        {content}
      </section>
      {selected === DEFAULT_PROFILE && <DefaultProfileDetail onClose={() => setSelected(null)} />}
      {selected !== null && clients.data?.some((c) => c.name === selected) === true && (
        <ClientDetail key={selected} name={selected} onClose={() => setSelected(null)} />
      )}
      {connecting && <ConnectDialog onClose={() => setConnecting(false)} onChanged={() => void refresh()} />}
      {removing !== null && (
        <ConfirmAction
          title="Remove client?"
          action="Remove"
          onClose={() => setRemoving(null)}
          onConfirm={async () => {
            await api.clientsRemove(removing);
            if (selected === removing) setSelected(null);
            setRemoving(null);
            await refresh();
          }}
        >
          Remove <strong>{removing}</strong>? Its profile and token go; an agent using its name is then served the default
          profile.
        </ConfirmAction>
      )}
    </section>
  );
}
