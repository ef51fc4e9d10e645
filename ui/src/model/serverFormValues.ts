// The add/edit form's raw state (exactly what the user typed) and conversion from a saved config.

import type { ServerConfig, Transport } from "../api/gatehouse";
import { formatArgLines } from "./parseArgLines";
import { formatEnvLines } from "./parseEnvLines";
import { formatHeaderLines } from "./parseHeaderLines";

export type ServerKind = "stdio" | "http";

/**
 * Both kinds' fields are kept side by side so switching stdio <-> http never
 * throws away what the user typed for the other kind.
 */
export type ServerFormValues = {
  name: string;
  enabled: boolean;
  kind: ServerKind;
  command: string;
  args: string;
  env: string;
  cwd: string;
  url: string;
  transport: Transport;
  headers: string;
};

export type ServerFormField = Exclude<keyof ServerFormValues, "enabled" | "kind" | "transport">;

export type ServerFormErrors = Partial<Record<ServerFormField, string>>;

export const TRANSPORTS: readonly { value: Transport; label: string }[] = [
  { value: "auto", label: "Auto (try streamable HTTP, fall back to SSE)" },
  { value: "streamable-http", label: "Streamable HTTP" },
  { value: "sse", label: "SSE (legacy)" },
];

export function emptyFormValues(): ServerFormValues {
  return {
    name: "",
    enabled: true,
    kind: "stdio",
    command: "",
    args: "",
    env: "",
    cwd: "",
    url: "",
    transport: "auto",
    headers: "",
  };
}

export function formValuesFromConfig(config: ServerConfig): ServerFormValues {
  const values: ServerFormValues = { ...emptyFormValues(), name: config.name, enabled: config.enabled };
  const spec = config.spec;
  if (spec.kind === "stdio") {
    return {
      ...values,
      kind: "stdio",
      command: spec.command,
      args: formatArgLines(spec.args),
      env: formatEnvLines(spec.env),
      cwd: spec.cwd ?? "",
    };
  }
  return {
    ...values,
    kind: "http",
    url: spec.url,
    transport: spec.transport,
    headers: formatHeaderLines(spec.headers),
  };
}
