// The requests waiting for a person and the standing grants, on TanStack Query. Both lists
// live in the engine: the window fetches them (so a reloaded window finds a pending request
// again) and fetches them anew whenever the engine says the waiting requests changed
// (`ApprovalsChangedEvent`).

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import * as api from "../api/gatehouse";
import type { Answer } from "../api/gatehouse";

export const APPROVALS_KEY = ["approvals"] as const;
export const GRANTS_KEY = ["grants"] as const;

/** The waiting requests, oldest first, kept current by the engine's events. */
export function useApprovals() {
  const client = useQueryClient();
  useEffect(
    () =>
      api.subscribeApprovalsChanged(() => {
        void client.invalidateQueries({ queryKey: APPROVALS_KEY });
        // An answer may have left a grant behind.
        void client.invalidateQueries({ queryKey: GRANTS_KEY });
      }),
    [client],
  );
  return useQuery({ queryKey: APPROVALS_KEY, queryFn: api.listApprovals });
}

/** Answers a waiting request; a refused answer (validation) rejects, and the request stays. */
export function useAnswerApproval() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, answer }: { id: string; answer: Answer }) => api.answerApproval(id, answer),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: APPROVALS_KEY });
      void client.invalidateQueries({ queryKey: GRANTS_KEY });
    },
  });
}

/** The standing grants that still hold. */
export function useGrants() {
  return useQuery({ queryKey: GRANTS_KEY, queryFn: api.listGrants });
}

/** Revokes a grant. */
export function useRevokeGrant() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.revokeGrant(id),
    onSettled: () => void client.invalidateQueries({ queryKey: GRANTS_KEY }),
  });
}
