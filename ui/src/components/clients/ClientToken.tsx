// A client's token: Create (or replace) shows the new token once, in a copyable field, and the
// window keeps it only while this part is shown (it is gone when the person leaves the client
// or the page); Revoke asks first.

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import type { ClientRecord } from "../../api/gatehouse";
import * as api from "../../api/gatehouse";
import { errorMessage } from "../../api/GatehouseError";
import { ErrorBanner } from "../ErrorBanner";
import { useRefreshClients } from "./clientQueries";
import { ConfirmAction } from "../ConfirmAction";

export function ClientToken({ client }: { client: ClientRecord }) {
  const refresh = useRefreshClients();
  const [token, setToken] = useState<string | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const [revoking, setRevoking] = useState(false);
  const create = useMutation({
    mutationFn: () => api.clientsCreateToken(client.name),
    // The token is not kept in the mutation cache once this part is gone.
    gcTime: 0,
    onSuccess: (made) => {
      setToken(made);
      setCopied(null);
    },
    onSettled: refresh,
  });

  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied("Copied.");
    } catch (e) {
      setCopied(`Could not copy: ${errorMessage(e)}. Select the field and copy it.`);
    }
  };

  return (
    <div className="client-token" data-testid="client-token">
      {create.error !== null && (
        <ErrorBanner message={`Could not create the token: ${errorMessage(create.error)}`} onDismiss={() => create.reset()} />
      )}
      <p>
        {client.has_token ? `A token was made ${client.token_created_at ?? ""}.` : "No token: the client cannot use the HTTP endpoint."}
      </p>
      {token !== null && (
        <div className="client-token-shown" data-testid="token-shown">
          <p className="client-note">
            <strong>Shown once.</strong> Copy it now: Gatehouse keeps it only in the keyring and will not show it again.
          </p>
          <div className="client-copy-row">
            <input className="input" readOnly value={token} aria-label="New token" data-testid="token-value" onFocus={(e) => e.currentTarget.select()} />
            <button type="button" className="button" onClick={() => void copy(token)}>
              Copy
            </button>
            <button type="button" className="button" onClick={() => setToken(null)}>
              Done
            </button>
          </div>
          {copied !== null && <p className="muted">{copied}</p>}
        </div>
      )}
      <div className="client-actions">
        <button type="button" className="button" onClick={() => create.mutate()} disabled={create.isPending} data-testid="create-token">
          {client.has_token ? "Replace token" : "Create token"}
        </button>
        {client.has_token && (
          <button type="button" className="button button-danger" onClick={() => setRevoking(true)} data-testid="revoke-token">
            Revoke token
          </button>
        )}
      </div>
      {revoking && (
        <ConfirmAction
          title="Revoke token?"
          action="Revoke"
          onClose={() => setRevoking(false)}
          onConfirm={async () => {
            await api.clientsRevokeToken(client.name);
            setToken(null);
            setRevoking(false);
            await refresh();
          }}
        >
          Revoke <strong>{client.name}</strong>&apos;s token? Agents using it are refused from their next request.
        </ConfirmAction>
      )}
    </div>
  );
}
