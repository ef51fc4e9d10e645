// The Clients page's server state: query keys and loaders, shared by the list and a client's
// detail so a change made in one refreshes the other.

import { useQuery, useQueryClient } from "@tanstack/react-query";
import * as api from "../../api/gatehouse";
import type { ProfileChange } from "../../api/gatehouse";

export const clientKeys = {
  all: ["clients"] as const,
  list: ["clients", "list"] as const,
  show: (name: string) => ["clients", "show", name] as const,
  defaultProfile: ["clients", "profile", "default"] as const,
  http: ["gateway", "http"] as const,
};

/** How often the list is read again while shown: agents attach and leave on their own. */
const LIST_EVERY_MS = 5000;

export function useClients() {
  return useQuery({ queryKey: clientKeys.list, queryFn: api.clientsList, refetchInterval: LIST_EVERY_MS });
}

export function useClient(name: string) {
  return useQuery({ queryKey: clientKeys.show(name), queryFn: () => api.clientsShow(name) });
}

/** The default profile, which every client's lies over. */
export function useDefaultProfile() {
  return useQuery({ queryKey: clientKeys.defaultProfile, queryFn: () => api.clientsProfile(null) });
}

/**
 * The HTTP endpoint's setting and what the app serves. The engine follows a change within about
 * half a second, so while the two disagree the endpoint is read again every second.
 */
export function useGatewayHttp() {
  return useQuery({
    queryKey: clientKeys.http,
    queryFn: api.gatewayHttpSettings,
    refetchInterval: (query) => {
      const endpoint = query.state.data;
      if (endpoint === undefined) return false;
      const settled = endpoint.enabled ? endpoint.serving.state === "listening" : endpoint.serving.state === "off";
      return settled ? false : 1000;
    },
  });
}

/** After a change: the clients are read again, and so is the audit log, which records it. */
export function useRefreshClients(): () => Promise<void> {
  const client = useQueryClient();
  return async () => {
    await Promise.all([client.invalidateQueries({ queryKey: clientKeys.all }), client.invalidateQueries({ queryKey: ["audit"] })]);
  };
}

/** A profile change with nothing in it but what `part` sets. */
export function profileChange(part: Partial<ProfileChange>): ProfileChange {
  return { resources: null, prompts: null, askPerson: null, maxInFlight: null, perMinute: null, maxMessageBytes: null, ...part };
}
