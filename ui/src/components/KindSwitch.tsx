// Radio group choosing how Gatehouse talks to a server: a local stdio process or an HTTP endpoint.

import { useId } from "react";
import type { ServerKind } from "../model/serverFormValues";

type KindSwitchProps = {
  kind: ServerKind;
  onChange: (kind: ServerKind) => void;
};

const KINDS: readonly { value: ServerKind; label: string; hint: string }[] = [
  { value: "stdio", label: "stdio", hint: "Launch a local command" },
  { value: "http", label: "HTTP", hint: "Connect to a URL" },
];

export function KindSwitch({ kind, onChange }: KindSwitchProps) {
  const name = useId();
  return (
    <fieldset className="field kind-switch">
      <legend className="field-label">Kind</legend>
      <div className="segmented">
        {KINDS.map((k) => (
          <label key={k.value} className={`segment${kind === k.value ? " segment-active" : ""}`}>
            <input
              type="radio"
              name={name}
              value={k.value}
              data-testid={`server-kind-${k.value}`}
              checked={kind === k.value}
              onChange={() => onChange(k.value)}
            />
            <span className="segment-label">{k.label}</span>
            <span className="segment-hint">{k.hint}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
