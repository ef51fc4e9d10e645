// The Audit page's filter bar: a full-text search box, then time range, server, tool, source,
// decision, outcome and gateway client. Every change is handed up at once; the page debounces the search.

import type { AuditFilterValues } from "../../model/auditFilter";
import { EMPTY_AUDIT_FILTER, hasFilters } from "../../model/auditFilter";

type AuditFiltersProps = {
  values: AuditFilterValues;
  search: string;
  onChange: (values: AuditFilterValues) => void;
  onSearch: (text: string) => void;
  /** Names offered for the server and tool fields. */
  servers: readonly string[];
  tools: readonly string[];
};

const SOURCES = ["user", "server", "app", "model", "gateway"];
// `render`: an MCP App view was shown; its row holds the Content-Security-Policy it ran under.
const DECISIONS = ["allow", "ask", "deny", "render"];
const OUTCOMES: readonly [string, string][] = [
  ["ok", "ok"],
  ["error", "any error"],
  ["tool_error", "tool error"],
  ["cancelled", "cancelled"],
  ["timeout", "timeout"],
];

export function AuditFilters({ values, search, onChange, onSearch, servers, tools }: AuditFiltersProps) {
  const set = (key: keyof AuditFilterValues) => (e: { target: { value: string } }) => onChange({ ...values, [key]: e.target.value });
  const clearable = hasFilters(values) || search !== "";
  return (
    <div className="audit-filters" role="search">
      <input
        type="search"
        className="input audit-search"
        placeholder="Search server, tool, source, decision, arguments…"
        aria-label="Search the audit log"
        value={search}
        onChange={(e) => onSearch(e.target.value)}
        data-testid="audit-search"
      />
      <label className="filter">
        <span>From</span>
        <input type="datetime-local" className="input" value={values.since} onChange={set("since")} aria-label="From" data-testid="audit-since" />
      </label>
      <label className="filter">
        <span>To</span>
        <input type="datetime-local" className="input" value={values.until} onChange={set("until")} aria-label="To" data-testid="audit-until" />
      </label>
      <label className="filter">
        <span>Server</span>
        <input className="input" list="audit-servers" value={values.server} onChange={set("server")} aria-label="Server" placeholder="any" />
        <datalist id="audit-servers">
          {servers.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
      </label>
      <label className="filter">
        <span>Tool</span>
        <input className="input" list="audit-tools" value={values.tool} onChange={set("tool")} aria-label="Tool" placeholder="any" />
        <datalist id="audit-tools">
          {tools.map((t) => (
            <option key={t} value={t} />
          ))}
        </datalist>
      </label>
      <label className="filter">
        <span>Source</span>
        <select className="input" value={values.source} onChange={set("source")} aria-label="Source">
          <option value="">any</option>
          {SOURCES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <label className="filter">
        <span>Decision</span>
        <select className="input" value={values.decision} onChange={set("decision")} aria-label="Decision">
          <option value="">any</option>
          {DECISIONS.map((d) => (
            <option key={d} value={d}>
              {d}
            </option>
          ))}
        </select>
      </label>
      <label className="filter">
        <span>Outcome</span>
        <select className="input" value={values.outcome} onChange={set("outcome")} aria-label="Outcome">
          <option value="">any</option>
          {OUTCOMES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label className="filter">
        <span>Client</span>
        <input
          className="input"
          value={values.client}
          onChange={set("client")}
          aria-label="Client"
          placeholder="any agent"
          title="A gateway client's name: the requests of that agent"
        />
      </label>
      <button
        type="button"
        className="button button-small audit-clear"
        disabled={!clearable}
        onClick={() => {
          onChange(EMPTY_AUDIT_FILTER);
          onSearch("");
        }}
      >
        Clear
      </button>
    </div>
  );
}
