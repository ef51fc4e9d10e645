// The add/edit form's raw state (exactly what the user typed) and conversion from a saved config.

import type { OAuthGrant, ServerConfig, Transport } from "../api/gatehouse";
import { formatArgLines } from "./parseArgLines";
import { formatEnvLines, formatSecretEnvLines } from "./parseEnvLines";
import { formatHeaderLines, formatSecretHeaderLines } from "./parseHeaderLines";
import { formatRootLines } from "./parseRootLines";

export type ServerKind = "stdio" | "http";

/**
 * Both kinds' fields are kept side by side so switching stdio <-> http never
 * throws away what the user typed for the other kind. Secret env vars and headers
 * have their own textareas; the stored* lists name the secrets the saved server
 * already has in the OS keyring (empty when adding), whose values the engine never sends.
 * Roots (one directory per line) apply to both kinds.
 */
export type ServerFormValues = {
  name: string;
  enabled: boolean;
  kind: ServerKind;
  roots: string;
  command: string;
  args: string;
  env: string;
  secretEnv: string;
  cwd: string;
  /** Seconds a stop waits after closing the server's stdin, then after SIGTERM. */
  stopGrace: string;
  termGrace: string;
  url: string;
  transport: Transport;
  headers: string;
  secretHeaders: string;
  storedSecretEnvKeys: readonly string[];
  storedSecretHeaderNames: readonly string[];
  /** A pre-registered OAuth client: its authorization server's issuer, id and secret. */
  oauthIssuer: string;
  oauthClientId: string;
  /** Typed anew; empty keeps a stored one (see storedOAuthSecret). */
  oauthClientSecret: string;
  oauthClientMetadataUrl: string;
  /** The keyring holds a client secret for this server. */
  storedOAuthSecret: boolean;
  /** A person signs in, or the client's own credentials get the tokens. */
  oauthGrant: OAuthGrant;
  /** The client's ES256 private key (PEM) for private_key_jwt; empty keeps a stored one. */
  oauthPrivateKey: string;
  storedOAuthPrivateKey: boolean;
  /** Workload identity (jwtBearer): the absolute path of the file holding the workload's JWT. */
  oauthAssertionFile: string;
  /** Enterprise-managed: the identity provider's issuer URL and Gatehouse's client id there. */
  oauthIdpIssuer: string;
  oauthIdpClientId: string;
  /** The client secret at the identity provider; empty keeps a stored one. */
  oauthIdpClientSecret: string;
  storedIdpSecret: boolean;
};

export type ServerFormField = Exclude<
  keyof ServerFormValues,
  "enabled" | "kind" | "transport" | "storedSecretEnvKeys" | "storedSecretHeaderNames" | "storedOAuthSecret" | "storedOAuthPrivateKey" | "storedIdpSecret" | "oauthGrant"
>;

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
    roots: "",
    command: "",
    args: "",
    env: "",
    secretEnv: "",
    cwd: "",
    stopGrace: "2",
    termGrace: "3",
    url: "",
    transport: "auto",
    headers: "",
    secretHeaders: "",
    storedSecretEnvKeys: [],
    storedSecretHeaderNames: [],
    oauthIssuer: "",
    oauthClientId: "",
    oauthClientSecret: "",
    oauthClientMetadataUrl: "",
    storedOAuthSecret: false,
    oauthGrant: "authorizationCode",
    oauthPrivateKey: "",
    storedOAuthPrivateKey: false,
    oauthAssertionFile: "",
    oauthIdpIssuer: "",
    oauthIdpClientId: "",
    oauthIdpClientSecret: "",
    storedIdpSecret: false,
  };
}

/**
 * Pre-fills the edit form; each stored secret becomes an empty-valued line, which keeps it on save,
 * and each root (a file:// URI) is shown as a plain path.
 */
export function formValuesFromConfig(config: ServerConfig): ServerFormValues {
  const values: ServerFormValues = {
    ...emptyFormValues(),
    name: config.name,
    enabled: config.enabled,
    roots: formatRootLines(config.roots),
  };
  const spec = config.spec;
  if (spec.kind === "stdio") {
    const secretKeys = spec.env.filter((v) => v.secret).map((v) => v.key);
    return {
      ...values,
      kind: "stdio",
      command: spec.command,
      args: formatArgLines(spec.args),
      env: formatEnvLines(spec.env.filter((v) => !v.secret)),
      secretEnv: formatSecretEnvLines(secretKeys),
      storedSecretEnvKeys: secretKeys,
      cwd: spec.cwd ?? "",
      stopGrace: String((spec.stop?.stdinMs ?? 2000) / 1000),
      termGrace: String((spec.stop?.termMs ?? 3000) / 1000),
    };
  }
  const secretNames = spec.headers.filter((h) => h.secret).map((h) => h.name);
  return {
    ...values,
    kind: "http",
    url: spec.url,
    transport: spec.transport,
    headers: formatHeaderLines(spec.headers.filter((h) => !h.secret)),
    secretHeaders: formatSecretHeaderLines(secretNames),
    storedSecretHeaderNames: secretNames,
    oauthIssuer: spec.oauth?.issuer ?? "",
    oauthClientId: spec.oauth?.clientId ?? "",
    oauthClientMetadataUrl: spec.oauth?.clientMetadataUrl ?? "",
    // The engine reads a stored secret back blank: "" means one is kept.
    storedOAuthSecret: spec.oauth?.clientSecret !== undefined && spec.oauth.clientSecret !== null,
    oauthGrant: spec.oauth?.grant ?? "authorizationCode",
    storedOAuthPrivateKey: spec.oauth?.privateKey !== undefined && spec.oauth.privateKey !== null,
    oauthAssertionFile: spec.oauth?.assertionFile ?? "",
    oauthIdpIssuer: spec.oauth?.idpIssuer ?? "",
    oauthIdpClientId: spec.oauth?.idpClientId ?? "",
    storedIdpSecret: spec.oauth?.idpClientSecret !== undefined && spec.oauth.idpClientSecret !== null,
  };
}
