// Read-only summary of a server's saved configuration. Env/header values are never shown:
// plain ones are listed by name, secret ones by name with a keyring marker. Roots show as paths.

import type { OAuthClientSettings, ServerConfig } from "../api/gatehouse";
import { rootUriToPath } from "../model/rootUriToPath";

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** Plain entries by name only, e.g. "DEBUG, LOG_LEVEL (values hidden)". */
function PlainNames({ names }: { names: readonly string[] }) {
  if (names.length === 0) return <span className="muted">none</span>;
  return (
    <>
      {names.join(", ")}
      <span className="muted"> (values hidden)</span>
    </>
  );
}

/** Secret entries by name with "•••• (in keyring)"; takes names only so no value can leak. */
function SecretNames({ names }: { names: readonly string[] }) {
  return (
    <ul className="secret-list">
      {names.map((name, i) => (
        <li key={i} data-testid="secret-entry">
          <span className="mono">{name}</span> <span className="muted">•••• (in keyring)</span>
        </li>
      ))}
    </ul>
  );
}

/** The server's roots (file:// URIs) as plain paths, one per row, or "No roots". */
function RootPaths({ uris }: { uris: readonly string[] }) {
  if (uris.length === 0) return <span className="muted">No roots</span>;
  return (
    <ul className="root-list mono">
      {uris.map((uri, i) => (
        <li key={i} data-testid="root-entry" title={uri}>
          {rootUriToPath(uri)}
        </li>
      ))}
    </ul>
  );
}

export function ServerConfigSummary({ config }: { config: ServerConfig }) {
  const spec = config.spec;
  const entries =
    spec.kind === "stdio"
      ? spec.env.map((e) => ({ name: e.key, secret: e.secret }))
      : spec.headers.map((h) => ({ name: h.name, secret: h.secret }));
  const plainNames = entries.filter((e) => !e.secret).map((e) => e.name);
  const secretNames = entries.filter((e) => e.secret).map((e) => e.name);
  return (
    <dl className="config-summary">
      <dt>Kind</dt>
      <dd>{spec.kind === "stdio" ? "stdio (local process)" : "HTTP"}</dd>
      {spec.kind === "stdio" ? (
        <>
          <dt>Command</dt>
          <dd className="mono">{spec.command}</dd>
          <dt>Arguments</dt>
          <dd>
            {spec.args.length === 0 ? (
              <span className="muted">none</span>
            ) : (
              <ol className="arg-list mono">
                {spec.args.map((arg, i) => (
                  <li key={i}>{arg}</li>
                ))}
              </ol>
            )}
          </dd>
          <dt>Environment</dt>
          <dd className="mono" data-testid="config-env">
            <PlainNames names={plainNames} />
          </dd>
          {secretNames.length > 0 && (
            <>
              <dt>Secret environment</dt>
              <dd data-testid="config-secret-env">
                <SecretNames names={secretNames} />
              </dd>
            </>
          )}
          <dt>Working directory</dt>
          <dd className="mono">{spec.cwd ?? <span className="muted">default</span>}</dd>
        </>
      ) : (
        <>
          <dt>URL</dt>
          <dd className="mono">{spec.url}</dd>
          <dt>Transport</dt>
          <dd>{spec.transport}</dd>
          <dt>Headers</dt>
          <dd className="mono" data-testid="config-headers">
            <PlainNames names={plainNames} />
          </dd>
          {secretNames.length > 0 && (
            <>
              <dt>Secret headers</dt>
              <dd data-testid="config-secret-headers">
                <SecretNames names={secretNames} />
              </dd>
            </>
          )}
          <dt>OAuth client</dt>
          <dd data-testid="config-oauth">{oauthClientText(spec.oauth)}</dd>
        </>
      )}
      <dt>Roots</dt>
      <dd data-testid="config-roots">
        <RootPaths uris={config.roots} />
      </dd>
      <dt>Added</dt>
      <dd>{formatDate(config.createdAt)}</dd>
      <dt>Last changed</dt>
      <dd>{formatDate(config.updatedAt)}</dd>
    </dl>
  );
}

/** The OAuth client a server presents, in words; never its secret. */
function oauthClientText(oauth: OAuthClientSettings | undefined): string {
  const clientId = oauth?.clientId ?? null;
  if (clientId !== null) {
    const secret = (oauth?.clientSecret ?? null) !== null ? ", its secret in the OS keyring" : "";
    return `${clientId} at ${oauth?.issuer ?? "?"}${secret}${grantText(oauth)}`;
  }
  const metadataUrl = oauth?.clientMetadataUrl ?? null;
  if (metadataUrl !== null) return `metadata document ${metadataUrl}`;
  return "registered by Gatehouse when signing in";
}

/** How the tokens are obtained, for the grants without a browser at the server's authorization server. */
function grantText(oauth: OAuthClientSettings | undefined): string {
  switch (oauth?.grant) {
    case "clientCredentials":
      return "; client credentials, nobody signs in";
    case "jwtBearer":
      return `; workload identity, the JWT read from ${oauth.assertionFile ?? "?"}`;
    case "enterpriseManaged": {
      const secret = (oauth.idpClientSecret ?? null) !== null ? ", its secret in the OS keyring" : "";
      return `; enterprise-managed, signing in at ${oauth.idpIssuer ?? "?"} as ${oauth.idpClientId ?? "?"}${secret}`;
    }
    default:
      return "";
  }
}
