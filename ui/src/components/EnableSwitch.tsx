// On/off switch (a real button with role="switch") for enabling or disabling a server.

type EnableSwitchProps = {
  serverName: string;
  enabled: boolean;
  busy: boolean;
  onChange: (enabled: boolean) => void;
};

export function EnableSwitch({ serverName, enabled, busy, onChange }: EnableSwitchProps) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={enabled}
      aria-label={`Enable ${serverName}`}
      className={`switch${enabled ? " switch-on" : ""}`}
      data-testid="server-toggle"
      disabled={busy}
      onClick={() => onChange(!enabled)}
    >
      <span className="switch-track" aria-hidden="true">
        <span className="switch-thumb" />
      </span>
      <span className="switch-text">{enabled ? "On" : "Off"}</span>
    </button>
  );
}
