// The import preview: every server the import would write (its launch as Gatehouse keeps it,
// each value that goes to the keyring shown masked, the environment variables it names, what is
// not carried over), every entry left out with the reason, and every file that could not be read.

import type { ImportPlan, PlannedServer, Shown } from "../../api/gatehouse";

function actionLabel(server: PlannedServer): { text: string; className: string } {
  switch (server.action.kind) {
    case "add":
      return { text: "Add", className: "badge badge-connected" };
    case "replace":
      return { text: `Replaces ${server.action.server}`, className: "badge badge-degraded" };
    case "unresolved":
      return { text: `Clashes with ${server.action.clashesWith}`, className: "badge badge-failed" };
  }
}

function Values({ label, values }: { label: string; values: Shown[] }) {
  if (values.length === 0) return null;
  return (
    <ul className="import-values" aria-label={label}>
      {values.map((v) => (
        <li key={v.name}>
          <code>
            {v.name}={v.value}
          </code>
          {v.secret && <span className="badge import-keyring">to the keyring</span>}
        </li>
      ))}
    </ul>
  );
}

function PlannedServerItem({ server }: { server: PlannedServer }) {
  const action = actionLabel(server);
  const launch = server.command !== undefined && server.command !== null ? [server.command, ...(server.args ?? [])].join(" ") : `${server.url ?? ""} (${server.transport ?? "auto"})`;
  return (
    <li className="import-server" data-testid={`import-server-${server.entry}`}>
      <div className="import-server-head">
        <strong>{server.name}</strong>
        {server.name !== server.entry && <span className="muted"> from {server.entry}</span>}
        <span className={action.className}>{action.text}</span>
        {!server.enabled && <span className="badge">Disabled</span>}
      </div>
      <code className="import-launch">{launch}</code>
      <Values label={server.kind === "stdio" ? "Environment" : "Headers"} values={(server.kind === "stdio" ? server.env : server.headers) ?? []} />
      {server.references.length > 0 && <p className="muted">From your environment when it starts: {server.references.join(", ")}</p>}
      {server.warnings.map((w) => (
        <p key={w} className="muted import-warning">
          {w}
        </p>
      ))}
    </li>
  );
}

export function ImportPlanView({ plan }: { plan: ImportPlan }) {
  const secrets = plan.servers.reduce((n, s) => n + s.secrets.length, 0);
  return (
    <div className="import-plan" data-testid="import-plan">
      <p>
        {plan.servers.length === 0
          ? "Nothing to import."
          : `${plan.servers.length} server${plan.servers.length === 1 ? "" : "s"} to import, ${secrets} value${secrets === 1 ? "" : "s"} to the keyring (shown masked; never kept in Gatehouse's database).`}
      </p>
      {plan.files
        .filter((f) => f.error !== null)
        .map((f) => (
          <p key={f.path} className="form-error" role="alert">
            {f.path} cannot be read: {f.error}
          </p>
        ))}
      <ul className="import-servers">
        {plan.servers.map((s) => (
          <PlannedServerItem key={`${s.file}:${s.entry}`} server={s} />
        ))}
      </ul>
      {plan.skipped.length > 0 && (
        <details className="import-skipped" open>
          <summary>Not imported ({plan.skipped.length})</summary>
          <ul>
            {plan.skipped.map((s) => (
              <li key={`${s.file}:${s.entry}`}>
                <strong>{s.entry}</strong>: {s.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
