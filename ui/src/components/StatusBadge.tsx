// Coloured badge showing a server's connection state; a failure's message is in its tooltip.
// A connected server's badge counts its tools, or names what a server without tools offers
// ("Connected · prompts, resources").

import type { ServerStatus } from "../api/gatehouse";
import { statusLabel } from "../model/describeStatus";

export function StatusBadge({ status }: { status: ServerStatus }) {
  const label = statusLabel(status);
  const title =
    status.state === "failed"
      ? `Failed: ${status.message}`
      : status.state === "degraded"
        ? `Degraded: ${status.reason}`
        : status.state === "authRequired"
          ? `Authorization required: ${status.message}`
          : label;
  return (
    <span className={`badge badge-${status.state}`} data-testid="server-status" title={title}>
      <span className="badge-dot" aria-hidden="true" />
      {label}
    </span>
  );
}
