// Each tool's definition history: every definition a server has shown of the tool (its hash,
// first and last seen, the current one marked); selecting two shows what changed between them,
// field by field.

import type { ServerPolicyView, ToolDefinitionRecord } from "../../api/gatehouse";
import { errorMessage } from "../../api/GatehouseError";
import { formatAuditTime } from "../../model/auditFilter";
import { diffDefinitions } from "../../model/definitionDiff";
import { shortHash } from "../../model/describeRule";
import { JsonView } from "../JsonView";
import { useDefinitions } from "./policyQueries";

/** What to show: a server, a tool, and up to two selected hashes. */
export type HistoryFocus = { serverId: string; tool: string; hashes: string[] };

type DefinitionHistoryProps = {
  servers: ServerPolicyView[];
  focus: HistoryFocus;
  onFocus: (focus: HistoryFocus) => void;
};

export function DefinitionHistory({ servers, focus, onFocus }: DefinitionHistoryProps) {
  const serverId = focus.serverId || (servers[0]?.serverId ?? "");
  const definitions = useDefinitions(serverId);
  const all = definitions.data ?? [];
  const toolNames = [...new Set(all.map((d) => d.tool))];
  const tool = toolNames.includes(focus.tool) ? focus.tool : (toolNames[0] ?? "");
  const history = all.filter((d) => d.tool === tool);
  const selected = focus.hashes.filter((h) => history.some((d) => d.hash === h));
  const toggle = (hash: string) => {
    const next = selected.includes(hash) ? selected.filter((h) => h !== hash) : [...selected, hash].slice(-2);
    onFocus({ serverId, tool, hashes: next });
  };

  if (servers.length === 0) {
    return <p className="muted">No servers yet: definitions are kept once a server lists its tools.</p>;
  }
  let body;
  if (definitions.isPending) {
    body = <p className="muted">Loading definitions…</p>;
  } else if (definitions.isError) {
    body = (
      <p className="form-error" role="alert">
        Could not read the definitions: {errorMessage(definitions.error)}
      </p>
    );
  } else if (all.length === 0) {
    body = <p className="muted" data-testid="no-definitions">This server has not listed its tools yet. Connect it to keep their definitions.</p>;
  } else {
    const pair = selected.length === 2 ? orderedPair(history, selected) : null;
    body = (
      <>
        <table className="policy-table" aria-label={`Definitions of ${tool}`}>
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">Compare</span>
              </th>
              <th scope="col">Definition</th>
              <th scope="col">First seen</th>
              <th scope="col">Last seen</th>
            </tr>
          </thead>
          <tbody>
            {history.map((d, i) => (
              <tr key={d.hash} data-testid="definition-row">
                <td>
                  <input
                    type="checkbox"
                    checked={selected.includes(d.hash)}
                    onChange={() => toggle(d.hash)}
                    aria-label={`Compare definition ${shortHash(d.hash)}`}
                  />
                </td>
                <td className="mono" title={d.hash}>
                  {shortHash(d.hash)} {i === 0 && <span className="pill pill-allow">current</span>}
                </td>
                <td>{formatAuditTime(d.firstSeen)}</td>
                <td>{formatAuditTime(d.lastSeen)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {history.length > 1 && selected.length < 2 && <p className="muted policy-note">Select two definitions to see what changed.</p>}
        {history.length === 1 && <p className="muted policy-note">One definition so far: the tool has not changed since it was first seen.</p>}
        {pair !== null && <DefinitionDiff before={pair[0]} after={pair[1]} />}
      </>
    );
  }

  return (
    <div className="definition-history">
      <div className="inline-fields">
        <label className="filter">
          <span>Server</span>
          <select className="input" value={serverId} onChange={(e) => onFocus({ serverId: e.target.value, tool: "", hashes: [] })} aria-label="Definitions of server">
            {servers.map((s) => (
              <option key={s.serverId} value={s.serverId}>
                {s.server}
              </option>
            ))}
          </select>
        </label>
        {toolNames.length > 0 && (
          <label className="filter">
            <span>Tool</span>
            <select className="input" value={tool} onChange={(e) => onFocus({ serverId, tool: e.target.value, hashes: [] })} aria-label="Definitions of tool">
              {toolNames.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      {body}
    </div>
  );
}

/** The two selected definitions, the older (first seen earlier) first. */
function orderedPair(history: ToolDefinitionRecord[], hashes: string[]): [ToolDefinitionRecord, ToolDefinitionRecord] | null {
  const picked = history.filter((d) => hashes.includes(d.hash)).sort((a, b) => a.firstSeen.localeCompare(b.firstSeen));
  const [a, b] = picked;
  return a !== undefined && b !== undefined ? [a, b] : null;
}

function DefinitionDiff({ before, after }: { before: ToolDefinitionRecord; after: ToolDefinitionRecord }) {
  const changes = diffDefinitions(before.definition, after.definition);
  const changed = changes.filter((c) => c.changed);
  const same = changes.filter((c) => !c.changed).map((c) => c.field);
  return (
    <div className="definition-diff" data-testid="definition-diff">
      <h3>
        {shortHash(before.hash)} → {shortHash(after.hash)}
      </h3>
      {changed.length === 0 && <p className="muted">No field differs.</p>}
      {changed.map((c) => (
        <div key={c.field} className="diff-field" data-testid="diff-field" data-field={c.field}>
          <h4 className="mono">{c.field}</h4>
          <div className="diff-sides">
            <div className="diff-before">
              <span className="diff-label">Before</span>
              <JsonView value={c.before} label={`${c.field} before`} />
            </div>
            <div className="diff-after">
              <span className="diff-label">After</span>
              <JsonView value={c.after} label={`${c.field} after`} />
            </div>
          </div>
        </div>
      ))}
      {same.length > 0 && <p className="muted policy-note">Unchanged: {same.join(", ")}.</p>}
    </div>
  );
}
