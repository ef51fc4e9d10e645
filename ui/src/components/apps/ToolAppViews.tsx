// The app views below a tool's Call form, for a tool whose `ToolInfo.ui.resourceUri` is set
// (model/toolUi): one for the latest finished call. When another call starts, the old view is
// hidden but stays mounted until it has answered its teardown, so a view is never removed without
// `ui/resource-teardown` (SEP-1865 "Cleanup"); a view closed by the person is removed once torn
// down. At most one view per call, each gone within the bounded teardown wait (3 s,
// TEARDOWN_TIMEOUT_MS).

import { useCallback, useState } from "react";
import type { ToolInfo } from "../../api/gatehouse";
import { AppPanel } from "./AppPanel";
import type { AppCall } from "./AppPanel";

type ToolAppViewsProps = {
  serverId: string;
  tool: ToolInfo;
  uri: string;
  /** The latest finished call and its key (null before any), or null once it is cleared. */
  call: (AppCall & { key: string }) | null;
};

type Entry = { key: string; call: AppCall; retiring: boolean };

export function ToolAppViews({ serverId, tool, uri, call }: ToolAppViewsProps) {
  const [entries, setEntries] = useState<Entry[]>([]);
  const [shownKey, setShownKey] = useState<string | null>(null);

  // A new call (or none): the view shown so far retires, the new one is added.
  const key = call?.key ?? null;
  if (key !== shownKey) {
    setShownKey(key);
    setEntries((current) => [
      ...current.map((entry) => ({ ...entry, retiring: true })),
      ...(call === null ? [] : [{ key: call.key, call, retiring: false }]),
    ]);
  }

  const remove = useCallback((gone: string) => setEntries((current) => current.filter((e) => e.key !== gone)), []);

  return (
    <>
      {entries.map((entry) => (
        <AppPanel
          key={entry.key}
          serverId={serverId}
          tool={tool}
          uri={uri}
          call={entry.call}
          retiring={entry.retiring}
          onClosed={() => remove(entry.key)}
        />
      ))}
    </>
  );
}
