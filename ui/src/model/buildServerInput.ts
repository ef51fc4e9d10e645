// Validates the add/edit form client-side (mirroring the engine's rules) and builds a ServerInput,
// joining the plain and the secret (keyring) lists of env vars or headers; roots apply to both kinds.

import type { EnvVar, OAuthClientSettings, ServerInput } from "../api/gatehouse";
import { checkSecretEntries } from "./checkSecretEntries";
import type { LineParseResult } from "./LineParseResult";
import { parseArgLines } from "./parseArgLines";
import { parseEnvLines } from "./parseEnvLines";
import { parseHeaderLines } from "./parseHeaderLines";
import { parseRootLines } from "./parseRootLines";
import type { ServerFormErrors, ServerFormValues } from "./serverFormValues";
import { validateHttpUrl } from "./validateHttpUrl";

export type BuildResult = { ok: true; input: ServerInput } | { ok: false; errors: ServerFormErrors };

type NamedValue = { name: string; value: string };

/** Messages for the secret list: its own parse errors, else the cross-checks with the plain list. */
function secretListErrors(
  plain: LineParseResult<NamedValue>,
  secret: LineParseResult<NamedValue>,
  storedNames: readonly string[],
  caseInsensitive: boolean,
): string[] {
  if (!secret.ok) return secret.errors;
  const plainNames = plain.ok ? plain.items.map((item) => item.name) : [];
  return checkSecretEntries({ plainNames, secrets: secret.items, storedNames, caseInsensitive });
}

/** Env vars under the common name/value shape the secret checks use. */
function envAsNamed(result: LineParseResult<EnvVar>): LineParseResult<NamedValue> {
  return result.ok ? { ok: true, items: result.items.map((v) => ({ name: v.key, value: v.value })) } : result;
}

const joined = (messages: string[]) => (messages.length > 0 ? messages.join("; ") : undefined);

/** The longest stop wait the engine accepts, in seconds. */
const MAX_GRACE_SECONDS = 600;

/** A stop wait typed in seconds, as milliseconds; an error message if it is not one. */
function parseGrace(raw: string): { ms: number } | { error: string } {
  const text = raw.trim();
  const seconds = Number(text);
  if (text === "" || !Number.isFinite(seconds) || seconds < 0) return { error: "a number of seconds, 0 or more" };
  if (seconds > MAX_GRACE_SECONDS) return { error: `at most ${MAX_GRACE_SECONDS} seconds` };
  return { ms: Math.round(seconds * 1000) };
}

/** Only the fields of the selected kind are validated and sent. */
export function buildServerInput(values: ServerFormValues): BuildResult {
  const errors: ServerFormErrors = {};
  const name = values.name.trim();
  if (name === "") errors.name = "name must not be empty";
  const roots = parseRootLines(values.roots);
  if (!roots.ok) errors.roots = roots.errors.join("; ");

  if (values.kind === "stdio") {
    const command = values.command.trim();
    if (command === "") errors.command = "command must not be empty";
    const env = parseEnvLines(values.env);
    const secretEnv = parseEnvLines(values.secretEnv, { secret: true });
    const envError = env.ok ? undefined : joined(env.errors);
    const secretEnvError = joined(secretListErrors(envAsNamed(env), envAsNamed(secretEnv), values.storedSecretEnvKeys, false));
    if (envError !== undefined) errors.env = envError;
    if (secretEnvError !== undefined) errors.secretEnv = secretEnvError;
    const stopGrace = parseGrace(values.stopGrace);
    const termGrace = parseGrace(values.termGrace);
    if ("error" in stopGrace) errors.stopGrace = stopGrace.error;
    if ("error" in termGrace) errors.termGrace = termGrace.error;
    if ("error" in stopGrace || "error" in termGrace) return { ok: false, errors };
    if (!roots.ok || !env.ok || !secretEnv.ok || Object.keys(errors).length > 0) return { ok: false, errors };
    const cwd = values.cwd.trim();
    return {
      ok: true,
      input: {
        name,
        enabled: values.enabled,
        roots: roots.items,
        spec: {
          kind: "stdio",
          command,
          args: parseArgLines(values.args),
          env: [...env.items, ...secretEnv.items],
          cwd: cwd === "" ? null : cwd,
          stop: { stdinMs: stopGrace.ms, termMs: termGrace.ms },
        },
      },
    };
  }

  const urlError = validateHttpUrl(values.url);
  if (urlError !== null) errors.url = urlError;
  const headers = parseHeaderLines(values.headers);
  const secretHeaders = parseHeaderLines(values.secretHeaders, { secret: true });
  const headersError = headers.ok ? undefined : joined(headers.errors);
  const secretHeadersError = joined(secretListErrors(headers, secretHeaders, values.storedSecretHeaderNames, true));
  if (headersError !== undefined) errors.headers = headersError;
  if (secretHeadersError !== undefined) errors.secretHeaders = secretHeadersError;
  const oauth = oauthSettings(values);
  if (oauth.clientId !== null && oauth.issuer === null) {
    errors.oauthIssuer = "a client id needs the issuer URL of the authorization server it is registered with";
  }
  if (oauth.grant === "jwtBearer" && oauth.assertionFile === null) {
    errors.oauthAssertionFile = "workload identity needs the path of the file holding the workload's JWT";
  }
  if (oauth.grant === "enterpriseManaged") {
    if (oauth.idpIssuer === null) errors.oauthIdpIssuer = "enterprise-managed authorization needs the identity provider's issuer URL";
    if (oauth.idpClientId === null) errors.oauthIdpClientId = "enterprise-managed authorization needs Gatehouse's client id at the identity provider";
  }
  if (!roots.ok || !headers.ok || !secretHeaders.ok || Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    input: {
      name,
      enabled: values.enabled,
      roots: roots.items,
      spec: {
        kind: "http",
        url: values.url.trim(),
        transport: values.transport,
        headers: [...headers.items, ...secretHeaders.items],
        ...(isEmpty(oauth) ? {} : { oauth }),
      },
    },
  };
}

/** The OAuth client settings of the form: blank fields as null; a kept secret as "" (keep). */
function oauthSettings(values: ServerFormValues): OAuthClientSettings {
  const given = (text: string) => (text.trim() === "" ? null : text.trim());
  const clientId = given(values.oauthClientId);
  const typed = given(values.oauthClientSecret);
  const machine = values.oauthGrant === "clientCredentials";
  const key = given(values.oauthPrivateKey);
  const enterprise = values.oauthGrant === "enterpriseManaged";
  const idpClientId = given(values.oauthIdpClientId);
  const idpSecret = given(values.oauthIdpClientSecret);
  return {
    issuer: given(values.oauthIssuer),
    clientId,
    clientSecret: typed ?? (values.storedOAuthSecret && clientId !== null ? "" : null),
    clientMetadataUrl: given(values.oauthClientMetadataUrl),
    grant: values.oauthGrant,
    privateKey: machine ? (key ?? (values.storedOAuthPrivateKey ? "" : null)) : null,
    // Only the grant's own fields are sent: the engine refuses the others.
    assertionFile: values.oauthGrant === "jwtBearer" ? given(values.oauthAssertionFile) : null,
    idpIssuer: enterprise ? given(values.oauthIdpIssuer) : null,
    idpClientId: enterprise ? idpClientId : null,
    idpClientSecret: enterprise ? (idpSecret ?? (values.storedIdpSecret && idpClientId !== null ? "" : null)) : null,
  };
}

function isEmpty(settings: OAuthClientSettings): boolean {
  return settings.grant === "authorizationCode" && Object.entries(settings).every(([k, v]) => k === "grant" || v === null);
}
