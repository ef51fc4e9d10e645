// First-run message shown when no servers are configured, with a way to add one or import the
// servers an agent on this machine already has.

type EmptyStateProps = { onAdd: () => void; onImport: () => void };

export function EmptyState({ onAdd, onImport }: EmptyStateProps) {
  return (
    <div className="empty-state" data-testid="empty-state">
      <div className="empty-state-icon" aria-hidden="true">
        ⌂
      </div>
      <h2>No servers yet</h2>
      <p>
        Add an MCP server to start: e.g. a stdio command like{" "}
        <code>npx -y @modelcontextprotocol/server-everything</code>, or the URL of a remote MCP server.
      </p>
      <button type="button" className="button button-primary" onClick={onAdd} data-testid="empty-state-add-button">
        Add your first server
      </button>
      <p className="muted">
        Your agents (Claude Code, Cursor, VS Code, …) may have MCP servers already.{" "}
        <button type="button" className="link-button" onClick={onImport} data-testid="empty-state-import-button">
          Import them
        </button>
      </p>
    </div>
  );
}
