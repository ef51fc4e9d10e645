// A server's icon beside its name: the image the server declares (checked by the engine, shown
// only as a data: URI), or its initial on a tinted square when it declares none that may be shown.

import type { ServerStatus } from "../api/gatehouse";
import { useServerIcon } from "../hooks/useServerIcon";

type ServerIconProps = { id: string; name: string; status: ServerStatus; size?: "small" | "large" };

export function ServerIcon({ id, name, status, size = "small" }: ServerIconProps) {
  const icon = useServerIcon(id, status);
  const className = `server-icon server-icon-${size}`;
  if (icon?.startsWith("data:image/")) {
    return <img className={className} src={icon} alt="" aria-hidden="true" data-testid="server-icon" draggable={false} />;
  }
  const initial = Array.from(name.trim())[0]?.toUpperCase() ?? "?";
  return (
    <span className={`${className} server-icon-initial`} aria-hidden="true" data-testid="server-icon-initial">
      {initial}
    </span>
  );
}
