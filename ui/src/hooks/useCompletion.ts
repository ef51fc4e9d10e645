// The server's suggestions for one argument as the person types: `completion/complete` asked
// once the value has stopped changing for COMPLETION_DELAY_MS (through the gate, like every
// request); while the person is still typing, no suggestions (those for an earlier value) show. A server without completions, or a
// failed request, leaves no suggestions (the field still takes anything typed).

import { useQuery } from "@tanstack/react-query";
import * as api from "../api/gatehouse";
import { useDebounced } from "./useDebounced";

export const COMPLETION_DELAY_MS = 250;

/** What is completed: a prompt's argument, or a resource template's variable. */
export type CompletionTarget = {
  serverId: string;
  /** The prompt's name, or the template's URI template. */
  reference: string;
  template: boolean;
  argument: string;
};

export function useCompletion(
  target: CompletionTarget,
  value: string,
  context: Record<string, string>,
  enabled: boolean,
): string[] {
  const settled = useDebounced(value, COMPLETION_DELAY_MS);
  // Compared as text: a context built anew on each render is the same context.
  const settledContext = JSON.parse(useDebounced(JSON.stringify(context), COMPLETION_DELAY_MS)) as Record<string, string>;
  const query = useQuery({
    queryKey: ["completion", target.serverId, target.template, target.reference, target.argument, settled, settledContext],
    queryFn: () =>
      api.completeArgument(target.serverId, target.reference, target.template, target.argument, settled, settledContext),
    enabled,
    retry: false,
    staleTime: 30_000,
  });
  // Suggestions for a value typed before are not shown for what is typed now.
  if (settled !== value) return [];
  return query.data?.values ?? [];
}
