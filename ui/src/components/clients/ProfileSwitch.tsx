// An on/off switch (Radix Switch) for one setting of a profile, marked when the profile sets it
// itself rather than taking it from the profile below (a client's from the default profile,
// the default profile's from Gatehouse's own), with a button that hands it back.

import * as Switch from "@radix-ui/react-switch";

type ProfileSwitchProps = {
  label: string;
  on: boolean;
  /** Whether the profile sets it itself (else it comes from the profile below). */
  own: boolean;
  busy: boolean;
  testId: string;
  onChange: (on: boolean) => void;
  /** Hands the setting back to the profile below; no button when absent. */
  onReset?: () => void;
  /** What the profile below is called: "default" for a client's, "Gatehouse's" for the default. */
  below?: string;
};

export function ProfileSwitch({ label, on, own, busy, testId, onChange, onReset, below = "default" }: ProfileSwitchProps) {
  return (
    <span className="profile-switch">
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
          {!own && <span className="muted"> ({below})</span>}
        </span>
      </Switch.Root>
      {own && onReset !== undefined && (
        <button
          type="button"
          className="link-button profile-reset"
          onClick={onReset}
          disabled={busy}
          aria-label={`${label}: use ${below === "default" ? "the default profile's" : below} setting`}
          data-testid={`${testId}-reset`}
        >
          Use {below}
        </button>
      )}
    </span>
  );
}
