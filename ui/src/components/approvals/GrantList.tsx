// The standing grants from approvals ("for this session", "for a time"), each with the source
// it covers, whether it covers only the arguments it was made for, and Revoke.

import type { Grant } from "../../api/gatehouse";
import { errorMessage } from "../../api/GatehouseError";
import { useGrants, useRevokeGrant } from "../../hooks/useApprovals";
import { ErrorBanner } from "../ErrorBanner";

function holds(grant: Grant): string {
  if (grant.scope === "timed") return grant.expiresAt !== null ? `until ${new Date(grant.expiresAt).toLocaleString()}` : "for a time";
  return grant.pid !== null ? `while Gatehouse (process ${grant.pid}) runs` : "this session";
}

/** Which calls a grant covers: its source (and caller), and these arguments or any. */
function covered(grant: Grant): string {
  const who = grant.caller === null ? grant.source : `${grant.source} (${grant.caller})`;
  const what =
    grant.covers === "these"
      ? "the arguments it was given for"
      : grant.rule === null
        ? "any arguments"
        : `any arguments rule ${grant.rule} asks about`;
  return `${who}: ${what}`;
}

export function GrantList() {
  const grants = useGrants();
  const revoke = useRevokeGrant();
  if (grants.isPending) return <p className="muted">Loading…</p>;
  if (grants.isError) return <ErrorBanner message={errorMessage(grants.error)} onRetry={() => void grants.refetch()} />;
  const list = grants.data;
  return (
    <>
      {revoke.isError && <ErrorBanner message={errorMessage(revoke.error)} onDismiss={() => revoke.reset()} />}
      {list.length === 0 ? (
        <p className="muted empty-state-compact" data-testid="no-grants">
          No standing grants. "Allow for this session" and "Allow for a time" leave one here.
        </p>
      ) : (
        <table className="approvals-table" data-testid="grant-list">
          <thead>
            <tr>
              <th>Server</th>
              <th>Tool</th>
              <th>Covers</th>
              <th>Holds</th>
              <th>
                <span className="visually-hidden">Revoke</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((grant) => (
              <tr key={grant.id} data-testid="grant-row">
                <td>{grant.server ?? grant.serverId}</td>
                <td>
                  <code>{grant.tool}</code>
                </td>
                <td data-testid="grant-covers">{covered(grant)}</td>
                <td>{holds(grant)}</td>
                <td className="approvals-table-action">
                  <button
                    type="button"
                    className="button button-small button-danger-quiet"
                    disabled={revoke.isPending}
                    onClick={() => revoke.mutate(grant.id)}
                    data-testid="revoke-grant"
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
