// Error thrown by the Gatehouse API wrapper: carries the engine's typed error code (generated
// from the engine's ErrorCode) and the user-facing message.

import type { ErrorCode } from "../bindings";

export type { ErrorCode };

/** An engine code, or `internal` when the IPC bridge itself failed (no engine answered). */
export type GatehouseErrorCode = ErrorCode | "internal";

// Every engine code once: `satisfies` fails the typecheck when the engine adds or drops one.
const ENGINE_CODES = {
  validation: true,
  duplicate_name: true,
  not_found: true,
  storage: true,
  schema_too_new: true,
  audit_broken: true,
  audit_unverified: true,
  connection: true,
  not_connected: true,
  unsupported: true,
  denied: true,
  secrets: true,
  keyring_unavailable: true,
  authorization: true,
  io: true,
  cancelled: true,
  too_many_calls: true,
  engine_running: true,
  engine_stopping: true,
  protocol: true,
} as const satisfies Record<ErrorCode, true>;

/** True for a code the engine sends (what crosses the bridge is checked, not trusted). */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === "string" && Object.hasOwn(ENGINE_CODES, code);
}

export class GatehouseError extends Error {
  readonly code: GatehouseErrorCode;

  constructor(code: GatehouseErrorCode, message: string) {
    super(message);
    this.name = "GatehouseError";
    this.code = code;
  }
}

/** Turns anything caught from an API call into a message fit to show the user. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || "Unknown error";
  if (typeof error === "string" && error) return error;
  return "Unknown error";
}
