// The tools section of the detail view: loading, error, empty and populated states, and what a
// server that offers no tools offers instead.

import type { Offer } from "../api/gatehouse";
import type { ToolsState } from "../hooks/useTools";
import { offersSentence } from "../model/describeStatus";
import { ToolItem } from "./ToolItem";

export function ToolList({ serverId, state }: { serverId: string; state: ToolsState }) {
  const { tools, loading, error, reload } = state;
  return (
    <section className="detail-section" aria-labelledby="tools-heading" aria-busy={loading}>
      <div className="section-head">
        <h3 id="tools-heading">
          Tools{tools !== null && <span className="count">{tools.length}</span>}
        </h3>
        <button type="button" className="button button-small" onClick={reload} disabled={loading}>
          {loading ? "Loading…" : "Refresh tools"}
        </button>
      </div>
      {error !== null && (
        <p className="form-error" role="alert">
          Could not load tools: {error}
        </p>
      )}
      {tools === null && loading && <p className="muted">Loading tools…</p>}
      {tools !== null && (
        <ul className="tool-list" data-testid="tool-list">
          {tools.map((tool) => (
            <ToolItem key={tool.name} serverId={serverId} tool={tool} />
          ))}
        </ul>
      )}
      {tools?.length === 0 && <p className="muted">This server offers no tools.</p>}
    </section>
  );
}

/** The tools section of a connected server that did not declare tools: it is never asked for them. */
export function NoToolsOffered({ offers }: { offers: Offer[] }) {
  return (
    <section className="detail-section" aria-labelledby="tools-heading">
      <h3 id="tools-heading">Tools</h3>
      <p className="muted" data-testid="no-tools">
        This server offers no tools. {offersSentence(offers)}
      </p>
    </section>
  );
}
