// Error thrown by the Gatehouse API wrapper: carries the engine's error code and user-facing message.

/** Error codes the engine is known to return; others may appear and are passed through. */
export type KnownErrorCode =
  | "validation"
  | "duplicate_name"
  | "not_found"
  | "storage"
  | "connection"
  | "authorization"
  | "keyring_unavailable"
  | "internal";

export class GatehouseError extends Error {
  readonly code: string;

  constructor(code: string, message: string) {
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
