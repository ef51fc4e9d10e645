// Read-only summary of a server's saved configuration (secrets in env/header values stay hidden).

import type { ServerConfig } from "../api/gatehouse";

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

export function ServerConfigSummary({ config }: { config: ServerConfig }) {
  const spec = config.spec;
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
          <dd className="mono">
            {spec.env.length === 0 ? <span className="muted">none</span> : spec.env.map((e) => e.key).join(", ")}
            {spec.env.length > 0 && <span className="muted"> (values hidden)</span>}
          </dd>
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
          <dd className="mono">
            {spec.headers.length === 0 ? <span className="muted">none</span> : spec.headers.map((h) => h.name).join(", ")}
            {spec.headers.length > 0 && <span className="muted"> (values hidden)</span>}
          </dd>
        </>
      )}
      <dt>Added</dt>
      <dd>{formatDate(config.createdAt)}</dd>
      <dt>Last changed</dt>
      <dd>{formatDate(config.updatedAt)}</dd>
    </dl>
  );
}
