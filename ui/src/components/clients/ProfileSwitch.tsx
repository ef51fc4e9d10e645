// An on/off switch (Radix Switch) for one setting of a client's profile, marked when the
// client sets it itself rather than taking it from the default profile.

import * as Switch from "@radix-ui/react-switch";

type ProfileSwitchProps = {
  label: string;
  on: boolean;
  /** Whether the client's own profile sets it (else it comes from the default profile). */
  own: boolean;
  busy: boolean;
  testId: string;
  onChange: (on: boolean) => void;
};

export function ProfileSwitch({ label, on, own, busy, testId, onChange }: ProfileSwitchProps) {
  return (
    <Switch.Root
      checked={on}
      onCheckedChange={onChange}
      aria-label={label}
      className={`switch${on ? " switch-on" : ""}`}
      data-testid={testId}
      data-own={own}
      disabled={busy}
    >
      <span className="switch-track" aria-hidden="true">
        <Switch.Thumb className="switch-thumb" />
      </span>
      <span className="switch-text">
        {on ? "On" : "Off"}
        {!own && <span className="muted"> (default)</span>}
      </span>
    </Switch.Root>
  );
}
