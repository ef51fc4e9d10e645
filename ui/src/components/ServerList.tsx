// The list of configured servers.

import type { ServerView } from "../api/gatehouse";
import { ServerRow } from "./ServerRow";

type ServerListProps = {
  servers: ServerView[];
  selectedId: string | null;
  busyIds: ReadonlySet<string>;
  onSelect: (id: string) => void;
  onToggle: (view: ServerView, enabled: boolean) => void;
  onEdit: (view: ServerView) => void;
  onRemove: (view: ServerView) => void;
};

export function ServerList({ servers, selectedId, busyIds, onSelect, onToggle, onEdit, onRemove }: ServerListProps) {
  return (
    <ul className="server-list" aria-label="Servers">
      {servers.map((view) => (
        <ServerRow
          key={view.config.id}
          view={view}
          selected={view.config.id === selectedId}
          busy={busyIds.has(view.config.id)}
          onSelect={() => onSelect(view.config.id)}
          onToggle={(enabled) => onToggle(view, enabled)}
          onEdit={() => onEdit(view)}
          onRemove={() => onRemove(view)}
        />
      ))}
    </ul>
  );
}
