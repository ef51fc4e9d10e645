// One client: its naming choice, profile, token, how an agent connects as it, and its recent
// requests.

import { useMutation } from "@tanstack/react-query";
import * as api from "../../api/gatehouse";
import type { AuditRow } from "../../api/gatehouse";
import { errorMessage } from "../../api/GatehouseError";
import { useServers } from "../../hooks/useServers";
import { ErrorBanner } from "../ErrorBanner";
import { ClientProfileEditor } from "./ClientProfileEditor";
import { ClientToken } from "./ClientToken";
import { useClient, useGatewayHttp, useRefreshClients } from "./clientQueries";
import { ProfileSwitch } from "./ProfileSwitch";

type ClientDetailProps = {
  name: string;
  onClose: () => void;
};

export function ClientDetail({ name, onClose }: ClientDetailProps) {
  const view = useClient(name);
  const { servers } = useServers();
  const refresh = useRefreshClients();
  const prefix = useMutation({
    mutationFn: (on: boolean) => api.clientsSetPrefix(name, on),
    onSettled: refresh,
  });

  let content;
  if (view.isPending) {
    content = <p className="muted page-loading">Loading {name}…</p>;
  } else if (view.error !== null) {
    content = <ErrorBanner message={`Could not read ${name}: ${errorMessage(view.error)}`} onRetry={() => void view.refetch()} />;
  } else {
    const { client, profile, recent } = view.data;
    content = (
      <>
        <section className="policy-section" aria-label="Names">
          <h3>Names</h3>
          {prefix.error !== null && (
            <ErrorBanner message={`Could not change the naming: ${errorMessage(prefix.error)}`} onDismiss={() => prefix.reset()} />
          )}
          <label className="client-switch-row">
            <span>Always name tools and prompts SERVER__NAME (else bare where no other server has the name)</span>
            <ProfileSwitch
              label="Always prefix"
              on={client.prefix}
              own
              busy={prefix.isPending}
              testId="client-prefix"
              onChange={(on) => prefix.mutate(on)}
            />
          </label>
        </section>
        <section className="policy-section" aria-label="Profile">
          <h3>Profile</h3>
          <ClientProfileEditor name={name} profile={profile} servers={servers} />
        </section>
        <section className="policy-section" aria-label="Token">
          <h3>Token</h3>
          <ClientToken client={client} />
        </section>
        <section className="policy-section" aria-label="Connect">
          <h3>Connect</h3>
          <ConnectSnippet name={name} />
        </section>
        <section className="policy-section" aria-label="Recent requests">
          <h3>Recent requests</h3>
          <RecentRequests rows={recent} />
        </section>
      </>
    );
  }

  return (
    <section className="client-detail" aria-labelledby="client-detail-heading" data-testid="client-detail">
      <div className="section-toolbar">
        <h2 id="client-detail-heading">{name}</h2>
        <button type="button" className="button button-small" onClick={onClose}>
          Close
        </button>
      </div>
      {content}
    </section>
  );
}

function ConnectSnippet({ name }: { name: string }) {
  const http = useGatewayHttp();
  const port = http.data?.port;
  return (
    <div className="client-connect" data-testid="client-connect">
      <p>Over stdio, the agent runs:</p>
      <pre className="client-code">
        <code>gatehouse mcp --client {name}</code>
      </pre>
      <p>Over HTTP, with the client&apos;s token as a bearer token:</p>
      {http.error !== null ? (
        <p className="form-error" role="alert">
          Could not read the HTTP setting: {errorMessage(http.error)}
        </p>
      ) : (
        <pre className="client-code">
          <code>{port === undefined ? "…" : `http://127.0.0.1:${port}/mcp`}</code>
        </pre>
      )}
      {http.data?.enabled === false && (
        <p className="muted">The HTTP endpoint is off: turn it on above, or with `gatehouse gateway http on`.</p>
      )}
    </div>
  );
}

function RecentRequests({ rows }: { rows: AuditRow[] }) {
  if (rows.length === 0) return <p className="muted">No requests yet.</p>;
  return (
    <table className="policy-table" aria-label="Recent requests">
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">What</th>
          <th scope="col">Server</th>
          <th scope="col">Tool</th>
          <th scope="col">Decision</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.seq} data-testid="client-recent-row">
            <td>{row.at}</td>
            <td>{row.kind}</td>
            <td>{row.server ?? ""}</td>
            <td>{row.tool ?? row.method ?? ""}</td>
            <td>{row.decision ?? row.errorType ?? ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
