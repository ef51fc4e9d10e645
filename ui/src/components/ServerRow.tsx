// One server in the list: name, kind, summary, status, and its enable/edit/remove actions.

import type { MouseEvent } from "react";
import type { ServerView } from "../api/gatehouse";
import { summarizeSpec } from "../model/summarizeSpec";
import { EnableSwitch } from "./EnableSwitch";
import { StatusBadge } from "./StatusBadge";

type ServerRowProps = {
  view: ServerView;
  selected: boolean;
  busy: boolean;
  onSelect: () => void;
  onToggle: (enabled: boolean) => void;
  onEdit: () => void;
  onRemove: () => void;
};

// The actions must not also select the row.
const stop = (e: MouseEvent) => e.stopPropagation();

export function ServerRow({ view, selected, busy, onSelect, onToggle, onEdit, onRemove }: ServerRowProps) {
  const { config, status } = view;
  const summary = summarizeSpec(config.spec);
  return (
    <li
      className={`server-row${selected ? " server-row-selected" : ""}`}
      data-testid="server-row"
      data-server-name={config.name}
      data-status={status.state}
      onClick={onSelect}
    >
      <div className="server-row-head">
        {/* The button makes the row keyboard-selectable; its click bubbles to the row. */}
        <button type="button" className="server-row-name" aria-current={selected ? "true" : undefined}>
          {config.name}
        </button>
        <span className="kind-chip">{config.spec.kind}</span>
        <StatusBadge status={status} />
      </div>
      <div className="server-row-summary mono" title={summary}>
        {summary}
      </div>
      <div className="server-row-actions" onClick={stop}>
        <EnableSwitch serverName={config.name} enabled={config.enabled} busy={busy} onChange={onToggle} />
        <span className="spacer" />
        <button type="button" className="button button-small" data-testid="server-edit" onClick={onEdit}>
          Edit
        </button>
        <button type="button" className="button button-small button-danger-quiet" data-testid="server-remove" onClick={onRemove}>
          Remove
        </button>
      </div>
    </li>
  );
}
