// One server in the list, two dense lines: its icon, name, kind, protocol revision and status; then its
// command or URL and its enable/edit/remove actions. Positioned by the virtualised list.

import type { CSSProperties, MouseEvent, Ref } from "react";
import type { ServerView } from "../api/gatehouse";
import { summarizeSpec } from "../model/summarizeSpec";
import { EnableSwitch } from "./EnableSwitch";
import { ServerIcon } from "./ServerIcon";
import { StatusBadge } from "./StatusBadge";

type ServerRowProps = {
  view: ServerView;
  index: number;
  selected: boolean;
  busy: boolean;
  rowRef?: Ref<HTMLLIElement>;
  style?: CSSProperties;
  onSelect: () => void;
  onToggle: (enabled: boolean) => void;
  onEdit: () => void;
  onRemove: () => void;
};

// The actions must not also select the row.
const stop = (e: MouseEvent) => e.stopPropagation();

export function ServerRow({ view, index, selected, busy, rowRef, style, onSelect, onToggle, onEdit, onRemove }: ServerRowProps) {
  const { config, status } = view;
  const summary = summarizeSpec(config.spec);
  const live = status.state === "connected" ? status : null;
  // Tools are counted by the status badge; what else the server offers is named beside it.
  const extras = live?.toolCount ? live.offers.filter((o) => o === "resources" || o === "prompts") : [];
  return (
    <li
      ref={rowRef}
      style={style}
      data-index={index}
      className={`server-row${selected ? " server-row-selected" : ""}`}
      data-testid="server-row"
      data-server-id={config.id}
      data-server-name={config.name}
      data-status={status.state}
      onClick={onSelect}
    >
      <div className="server-row-head">
        <ServerIcon id={config.id} name={config.name} status={status} />
        {/* The button makes the row keyboard-selectable; its click bubbles to the row. */}
        <button type="button" className="server-row-name" aria-current={selected ? "true" : undefined}>
          {config.name}
        </button>
        <span className="kind-chip">{config.spec.kind}</span>
        {live !== null && (
          <span className="kind-chip" data-testid="server-era" title={`${live.era} era, protocol revision ${live.protocolVersion}`}>
            {live.protocolVersion}
          </span>
        )}
        {extras.length > 0 && (
          <span className="server-row-offers muted" data-testid="server-offers">
            + {extras.join(", ")}
          </span>
        )}
        <StatusBadge status={status} />
      </div>
      <div className="server-row-foot">
        <span className="server-row-summary mono" title={summary}>
          {summary}
        </span>
        <span className="server-row-actions" onClick={stop}>
          <EnableSwitch serverName={config.name} enabled={config.enabled} busy={busy} onChange={onToggle} />
        <button type="button" className="button button-small" data-testid="server-edit" onClick={onEdit} aria-label={`Edit ${config.name}`}>
          Edit
        </button>
        <button
          type="button"
          className="button button-small button-danger-quiet"
          data-testid="server-remove"
          onClick={onRemove}
          aria-label={`Remove ${config.name}`}
        >
          Remove
        </button>
        </span>
      </div>
    </li>
  );
}
