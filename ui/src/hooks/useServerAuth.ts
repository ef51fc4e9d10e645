// An HTTP server's sign-in: its state (the `["auth", serverId]` query, refreshed whenever the
// server's status changes, since a sign-in or an expired token shows there first), and the
// mutations signing in and out.

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import * as api from "../api/gatehouse";

/** The query key of a server's sign-in state. */
export const authKey = (serverId: string) => ["auth", serverId] as const;

export function useServerAuth(serverId: string, enabled: boolean) {
  const client = useQueryClient();
  const status = useQuery({ queryKey: authKey(serverId), queryFn: () => api.authStatus(serverId), enabled });

  useEffect(() => {
    if (!enabled) return undefined;
    return api.subscribeServerStatus((event) => {
      if (event.id === serverId) void client.invalidateQueries({ queryKey: authKey(serverId) });
    });
  }, [client, serverId, enabled]);

  const refresh = () => client.invalidateQueries({ queryKey: authKey(serverId) });
  const signIn = useMutation({
    mutationFn: () => api.signIn(serverId),
    onSuccess: (state) => client.setQueryData(authKey(serverId), state),
    onSettled: refresh,
  });
  const signOut = useMutation({ mutationFn: () => api.signOut(serverId), onSettled: refresh });
  const forgetIdp = useMutation({ mutationFn: () => api.forgetIdpSignIn(serverId), onSettled: refresh });
  return { status, signIn, signOut, forgetIdp };
}

export type ServerAuth = ReturnType<typeof useServerAuth>;
