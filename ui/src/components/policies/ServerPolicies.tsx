// Each server's own policy: its default decision (or the global default) and whether its
// tools' read-only hints are trusted.

import * as Switch from "@radix-ui/react-switch";
import { useMutation } from "@tanstack/react-query";
import type { Effect, RuleView, ServerPolicyView } from "../../api/gatehouse";
import * as api from "../../api/gatehouse";
import { errorMessage } from "../../api/GatehouseError";
import { ErrorBanner } from "../ErrorBanner";
import { useRefreshPolicy } from "./policyQueries";

type ServerPoliciesProps = {
  servers: ServerPolicyView[];
  rules: RuleView[];
};

const EFFECTS: Effect[] = ["allow", "ask", "deny"];

export function ServerPolicies({ servers, rules }: ServerPoliciesProps) {
  const refresh = useRefreshPolicy();
  const setDefault = useMutation({
    mutationFn: ({ server, decision }: { server: string; decision: Effect | null }) => api.policySetServerDefault(server, decision),
    onSettled: refresh,
  });
  const setTrust = useMutation({
    mutationFn: ({ server, trust }: { server: string; trust: boolean }) => api.policySetTrustReadOnly(server, trust),
    onSettled: refresh,
  });
  // Defaults are the rules for every source; a rule for one source is listed with the rules.
  const global = rules.find((r) => r.serverId === null && r.tool === null && r.source === null);
  // With no global rule, what is not decided otherwise is asked about.
  const globalText = global?.decision ?? "ask";
  const error = setDefault.error ?? setTrust.error;

  return (
    <div className="policy-servers">
      {error !== null && (
        <ErrorBanner
          message={`Could not change the setting: ${errorMessage(error)}`}
          onDismiss={() => {
            setDefault.reset();
            setTrust.reset();
          }}
        />
      )}
      <table className="policy-table" aria-label="Server defaults">
        <thead>
          <tr>
            <th scope="col">Server</th>
            <th scope="col">Default</th>
            <th scope="col">Trust read-only hints</th>
          </tr>
        </thead>
        <tbody>
          {servers.map((server) => {
            const own = rules.find((r) => r.serverId === server.serverId && r.tool === null && r.source === null);
            const busy =
              (setDefault.isPending && setDefault.variables.server === server.serverId) ||
              (setTrust.isPending && setTrust.variables.server === server.serverId);
            return (
              <tr key={server.serverId} data-testid="server-policy" data-server-name={server.server}>
                <th scope="row">{server.server}</th>
                <td>
                  <select
                    className="input input-compact"
                    aria-label={`Default for ${server.server}`}
                    value={own?.decision ?? ""}
                    disabled={busy}
                    onChange={(e) => {
                      const value = e.target.value;
                      setDefault.mutate({ server: server.serverId, decision: value === "" ? null : (value as Effect) });
                    }}
                  >
                    <option value="">Global default ({globalText})</option>
                    {EFFECTS.map((effect) => (
                      <option key={effect} value={effect}>
                        {effect}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  <Switch.Root
                    checked={server.trustReadOnly}
                    onCheckedChange={(trust) => setTrust.mutate({ server: server.serverId, trust })}
                    aria-label={`Trust read-only hints of ${server.server}`}
                    className={`switch${server.trustReadOnly ? " switch-on" : ""}`}
                    disabled={busy}
                    data-testid="trust-toggle"
                  >
                    <span className="switch-track" aria-hidden="true">
                      <Switch.Thumb className="switch-thumb" />
                    </span>
                    <span className="switch-text">{server.trustReadOnly ? "Trusted" : "Not trusted"}</span>
                  </Switch.Root>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="muted policy-note">
        A tool marked <code>readOnlyHint</code> is allowed without asking only on a server whose hints you trust. A tool marked{" "}
        <code>destructiveHint</code> is always asked about unless a rule for it says otherwise.
      </p>
    </div>
  );
}
