// First-run message shown when no servers are configured, with a way to add one.

type EmptyStateProps = { onAdd: () => void };

export function EmptyState({ onAdd }: EmptyStateProps) {
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
    </div>
  );
}
