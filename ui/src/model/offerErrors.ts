// What a person can do about a failed resource or prompt request, by the engine's error code:
// the engine's message, followed by the next step.

import { errorMessage, GatehouseError } from "../api/GatehouseError";

const NEXT_STEP: Partial<Record<string, string>> = {
  not_connected: "Start or reconnect the server, then try again.",
  denied: "A policy rule or a person's answer refused it: see the Policies and Audit pages.",
  unsupported: "This server does not offer it.",
  not_found: "The server does not know it: check the URI or the name.",
  connection: "The server did not answer: see its Logs tab, then reconnect.",
  protocol: "The server answered something Gatehouse cannot read: see its Logs tab.",
  validation: "Check what you entered.",
  too_many_calls: "Wait for a request to finish, then try again.",
};

/** The error's message, and what to do next when the code says. */
export function offerErrorText(error: unknown): string {
  const message = errorMessage(error);
  const step = error instanceof GatehouseError ? NEXT_STEP[error.code] : undefined;
  return step === undefined ? message : `${message}. ${step}`;
}
