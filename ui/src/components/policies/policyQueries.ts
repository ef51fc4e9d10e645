// The Policies page's server state: query keys and the loaders, shared by its sections so a
// change made in one refreshes the others.

import { useQuery, useQueryClient } from "@tanstack/react-query";
import * as api from "../../api/gatehouse";

export const policyKeys = {
  all: ["policy"] as const,
  servers: ["policy", "servers"] as const,
  rules: ["policy", "rules"] as const,
  appSites: ["policy", "app-sites"] as const,
  definitions: (serverId: string) => ["policy", "definitions", serverId] as const,
};

export function usePolicyServers() {
  return useQuery({ queryKey: policyKeys.servers, queryFn: api.policyServers });
}

export function usePolicyRules() {
  return useQuery({ queryKey: policyKeys.rules, queryFn: api.policyRules });
}

/** Every definition kept of a server's tools; nothing is fetched for an empty id. */
export function useDefinitions(serverId: string) {
  return useQuery({
    queryKey: policyKeys.definitions(serverId),
    queryFn: () => api.policyDefinitionHistory(serverId, null),
    enabled: serverId !== "",
  });
}

/** After a change: the policy is read again, and so is the audit log, which records it. */
export function useRefreshPolicy(): () => Promise<void> {
  const client = useQueryClient();
  return async () => {
    await Promise.all([
      client.invalidateQueries({ queryKey: policyKeys.all }),
      client.invalidateQueries({ queryKey: ["audit"] }),
    ]);
  };
}
