// One tool a server offers: name, title, description, its input schema on demand, and a Call
// button that opens the form to call it.

import { lazy, Suspense, useState } from "react";
import type { ToolInfo } from "../api/gatehouse";
import { takeCallRequest } from "../model/callRequest";
import { capText, MAX_NAME_CHARS, MAX_TEXT_CHARS } from "../model/capText";

// The form library and its validator load when a form is first opened.
const ToolCallPanel = lazy(() => import("./ToolCallPanel").then((m) => ({ default: m.ToolCallPanel })));

export function ToolItem({ serverId, tool }: { serverId: string; tool: ToolInfo }) {
  const [calling, setCalling] = useState(() => takeCallRequest(serverId, tool.name));
  return (
    <li className="tool-item" data-testid="tool-item" data-tool-name={tool.name}>
      <div className="tool-head">
        <code className="tool-name" title={capText(tool.name, MAX_TEXT_CHARS)}>
          {capText(tool.name, MAX_NAME_CHARS)}
        </code>
        {tool.title !== null && tool.title !== "" && tool.title !== tool.name && (
          <span className="tool-title">{capText(tool.title, MAX_NAME_CHARS)}</span>
        )}
        <button
          type="button"
          className="button button-small tool-call-toggle"
          data-testid="tool-call-button"
          aria-expanded={calling}
          onClick={() => setCalling((open) => !open)}
        >
          {calling ? "Close" : "Call"}
        </button>
      </div>
      {tool.description !== null && tool.description !== "" ? (
        <p className="tool-description">{capText(tool.description, MAX_TEXT_CHARS)}</p>
      ) : (
        <p className="tool-description muted">No description.</p>
      )}
      <details className="tool-schema">
        <summary>Input schema</summary>
        <pre className="mono">{JSON.stringify(tool.inputSchema, null, 2)}</pre>
      </details>
      {calling && (
        <Suspense fallback={<p className="muted">Loading the form…</p>}>
          <ToolCallPanel serverId={serverId} tool={tool} />
        </Suspense>
      )}
    </li>
  );
}
