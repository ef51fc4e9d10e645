// One setting: a labelled on/off switch (Radix Switch) with a line saying what it does.

import * as Switch from "@radix-ui/react-switch";

type SettingSwitchProps = {
  id: string;
  label: string;
  description: string;
  checked: boolean;
  busy: boolean;
  onChange: (on: boolean) => void;
};

export function SettingSwitch({ id, label, description, checked, busy, onChange }: SettingSwitchProps) {
  return (
    <div className="setting" data-testid={`setting-${id}`}>
      <div className="setting-text">
        <label className="setting-label" htmlFor={id}>
          {label}
        </label>
        <p className="muted setting-description" id={`${id}-description`}>
          {description}
        </p>
      </div>
      <Switch.Root
        id={id}
        checked={checked}
        onCheckedChange={onChange}
        aria-describedby={`${id}-description`}
        className={`switch${checked ? " switch-on" : ""}`}
        disabled={busy}
        data-testid={`setting-${id}-switch`}
      >
        <span className="switch-track" aria-hidden="true">
          <Switch.Thumb className="switch-thumb" />
        </span>
        <span className="switch-text">{checked ? "On" : "Off"}</span>
      </Switch.Root>
    </div>
  );
}
