// A masked textarea for secret env vars or headers (kept in the OS keyring): a Show toggle
// next to the label, the keep-on-empty help text, and the names already stored.

import { useState } from "react";
import { FormField } from "./FormField";

type SecretLinesFieldProps = {
  label: string;
  testId: string;
  /** How an empty-valued line looks for this list, e.g. `KEY=` or `Name:`. */
  keepExample: string;
  placeholder: string;
  value: string;
  error: string | undefined;
  /** Names the saved server already has in the keyring (empty when adding). */
  storedNames: readonly string[];
  onChange: (value: string) => void;
};

export function SecretLinesField(props: SecretLinesFieldProps) {
  const { label, testId, keepExample, placeholder, value, error, storedNames, onChange } = props;
  const [shown, setShown] = useState(false);
  const hint = (
    <>
      Stored in the OS keyring, never in Gatehouse&apos;s database. When editing, leave a value empty (
      <code>{keepExample}</code>) to keep the stored one.
    </>
  );
  const note =
    storedNames.length === 0 ? undefined : (
      <span data-testid={`${testId}-stored`}>
        In the keyring now:{" "}
        {storedNames.map((name, i) => (
          <span key={i}>
            {i > 0 && ", "}
            <code>{name}</code>
          </span>
        ))}
      </span>
    );

  return (
    <FormField
      label={label}
      optional
      error={error}
      hint={hint}
      note={note}
      labelAction={(controlId) => (
        <button
          type="button"
          className="button button-small field-label-action"
          data-testid={`${testId}-show`}
          aria-pressed={shown}
          aria-controls={controlId}
          aria-label={`Show ${label.toLowerCase()}`}
          onClick={() => setShown((s) => !s)}
        >
          Show
        </button>
      )}
    >
      {(control) => (
        <textarea
          {...control}
          className={`input mono${shown ? "" : " input-masked"}`}
          data-testid={testId}
          data-masked={shown ? "false" : "true"}
          rows={3}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          placeholder={placeholder}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
        />
      )}
    </FormField>
  );
}
