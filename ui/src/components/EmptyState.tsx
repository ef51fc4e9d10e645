// First-run message shown when no servers are configured: three ways to start. Add a server,
// import the servers an agent on this machine already has, or try the demo server that ships
// with the app (no network needed), which opens its echo tool's Call form.

type EmptyStateProps = { onAdd: () => void; onImport: () => void; onDemo: () => void; demoBusy: boolean };

export function EmptyState({ onAdd, onImport, onDemo, demoBusy }: EmptyStateProps) {
  return (
    <div className="empty-state" data-testid="empty-state">
      <div className="empty-state-icon" aria-hidden="true">
        ⌂
      </div>
      <h2>No servers yet</h2>
      <p>Gatehouse sits between your agents and their MCP servers. Start in one of three ways:</p>
      <ol className="first-run-steps">
        <li>
          <button type="button" className="button button-primary" onClick={onAdd} data-testid="empty-state-add-button">
            Add your first server
          </button>
          <span className="muted">
            a stdio command like <code>npx -y @modelcontextprotocol/server-everything</code>, or the URL of a remote MCP server.
          </span>
        </li>
        <li>
          <button type="button" className="button" onClick={onImport} data-testid="empty-state-import-button">
            Import from an agent
          </button>
          <span className="muted">Claude Code, Cursor, VS Code, … may have MCP servers already.</span>
        </li>
        <li>
          <button type="button" className="button" onClick={onDemo} disabled={demoBusy} data-testid="empty-state-demo-button">
            {demoBusy ? "Adding the demo server…" : "Try the demo server"}
          </button>
          <span className="muted">a small server that ships with Gatehouse and needs no network: call its tools, read its resources, get its prompt.</span>
        </li>
      </ol>
    </div>
  );
}
