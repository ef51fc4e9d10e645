// Where Gatehouse keeps its data (read-only here: it is chosen with GATEHOUSE_DATA_DIR or
// --data-dir), with a button that opens it in the file manager.

import { useMutation, useQuery } from "@tanstack/react-query";
import * as api from "../../api/gatehouse";
import { errorMessage } from "../../api/GatehouseError";
import { ErrorBanner } from "../ErrorBanner";

export function DataDirSetting() {
  const dir = useQuery({ queryKey: ["settings", "dataDir"], queryFn: () => api.dataDir() });
  const open = useMutation({ mutationFn: () => api.openDataDir() });
  return (
    <div className="setting" data-testid="setting-data-dir">
      <div className="setting-text">
        <span className="setting-label" id="data-dir-label">
          Data directory
        </span>
        <p className="muted setting-description">
          <code aria-labelledby="data-dir-label" data-testid="data-dir">
            {dir.data ?? "…"}
          </code>
        </p>
        {open.error !== null && <ErrorBanner message={errorMessage(open.error)} />}
      </div>
      <button type="button" className="button" onClick={() => open.mutate()} disabled={dir.data === undefined} data-testid="open-data-dir">
        Open
      </button>
    </div>
  );
}
