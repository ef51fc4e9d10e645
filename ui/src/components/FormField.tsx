// A labelled form control with optional hint and inline error, wired up with aria attributes.

import { useId } from "react";
import type { ReactNode } from "react";

export type FieldControlProps = {
  id: string;
  "aria-describedby"?: string;
  "aria-invalid"?: true;
};

type FormFieldProps = {
  label: string;
  hint?: ReactNode;
  error?: string | undefined;
  optional?: boolean;
  children: (control: FieldControlProps) => ReactNode;
};

export function FormField({ label, hint, error, optional = false, children }: FormFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint !== undefined ? hintId : null, error !== undefined ? errorId : null]
    .filter((x) => x !== null)
    .join(" ");
  const control: FieldControlProps = { id };
  if (describedBy !== "") control["aria-describedby"] = describedBy;
  if (error !== undefined) control["aria-invalid"] = true;

  return (
    <div className={`field${error !== undefined ? " field-invalid" : ""}`}>
      <label htmlFor={id} className="field-label">
        {label}
        {optional && <span className="field-optional"> (optional)</span>}
      </label>
      {children(control)}
      {hint !== undefined && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      {error !== undefined && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
