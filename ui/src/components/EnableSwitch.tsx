// On/off switch (Radix Switch: a button with role="switch") for enabling or disabling a server.

import * as Switch from "@radix-ui/react-switch";

type EnableSwitchProps = {
  serverName: string;
  enabled: boolean;
  busy: boolean;
  onChange: (enabled: boolean) => void;
};

export function EnableSwitch({ serverName, enabled, busy, onChange }: EnableSwitchProps) {
  return (
    <Switch.Root
      checked={enabled}
      onCheckedChange={onChange}
      aria-label={`Enable ${serverName}`}
      className={`switch${enabled ? " switch-on" : ""}`}
      data-testid="server-toggle"
      disabled={busy}
    >
      <span className="switch-track" aria-hidden="true">
        <Switch.Thumb className="switch-thumb" />
      </span>
      <span className="switch-text">{enabled ? "On" : "Off"}</span>
    </Switch.Root>
  );
}
