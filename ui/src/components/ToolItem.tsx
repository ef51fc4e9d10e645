// One tool a server offers: name, title, description, and its input schema on demand.

import type { ToolInfo } from "../api/gatehouse";

export function ToolItem({ tool }: { tool: ToolInfo }) {
  return (
    <li className="tool-item" data-testid="tool-item" data-tool-name={tool.name}>
      <div className="tool-head">
        <code className="tool-name">{tool.name}</code>
        {tool.title !== null && tool.title !== "" && tool.title !== tool.name && (
          <span className="tool-title">{tool.title}</span>
        )}
      </div>
      {tool.description !== null && tool.description !== "" ? (
        <p className="tool-description">{tool.description}</p>
      ) : (
        <p className="tool-description muted">No description.</p>
      )}
      <details className="tool-schema">
        <summary>Input schema</summary>
        <pre className="mono">{JSON.stringify(tool.inputSchema, null, 2)}</pre>
      </details>
    </li>
  );
}
