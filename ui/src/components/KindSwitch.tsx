// Radio group (Radix RadioGroup: arrow keys move the choice) choosing how Gatehouse talks to a
// server: a local stdio process or an HTTP endpoint.

import * as RadioGroup from "@radix-ui/react-radio-group";
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
  const legend = useId();
  return (
    <fieldset className="field kind-switch">
      <legend className="field-label" id={legend}>
        Kind
      </legend>
      <RadioGroup.Root
        className="segmented"
        value={kind}
        onValueChange={(value) => onChange(value as ServerKind)}
        aria-labelledby={legend}
      >
        {KINDS.map((k) => (
          <label key={k.value} className={`segment${kind === k.value ? " segment-active" : ""}`}>
            <RadioGroup.Item value={k.value} className="segment-radio" data-testid={`server-kind-${k.value}`} aria-label={k.label}>
              <RadioGroup.Indicator className="segment-radio-dot" />
            </RadioGroup.Item>
            <span className="segment-label">{k.label}</span>
            <span className="segment-hint">{k.hint}</span>
          </label>
        ))}
      </RadioGroup.Root>
    </fieldset>
  );
}
