// A labelled form control with optional hint, note, label-side action and inline error,
// wired up with aria attributes.

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
  /** A second line of help under the hint (e.g. which secrets are stored). */
  note?: ReactNode;
  error?: string | undefined;
  optional?: boolean;
  /** A small control shown next to the label (e.g. a Show toggle); gets the control's id. */
  labelAction?: (controlId: string) => ReactNode;
  children: (control: FieldControlProps) => ReactNode;
};

export function FormField({ label, hint, note, error, optional = false, labelAction, children }: FormFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const noteId = `${id}-note`;
  const errorId = `${id}-error`;
  const describedBy = [
    hint !== undefined ? hintId : null,
    note !== undefined ? noteId : null,
    error !== undefined ? errorId : null,
  ]
    .filter((x) => x !== null)
    .join(" ");
  const control: FieldControlProps = { id };
  if (describedBy !== "") control["aria-describedby"] = describedBy;
  if (error !== undefined) control["aria-invalid"] = true;

  const labelElement = (
    <label htmlFor={id} className="field-label">
      {label}
      {optional && <span className="field-optional"> (optional)</span>}
    </label>
  );

  return (
    <div className={`field${error !== undefined ? " field-invalid" : ""}`}>
      {labelAction === undefined ? (
        labelElement
      ) : (
        <div className="field-label-row">
          {labelElement}
          {labelAction(id)}
        </div>
      )}
      {children(control)}
      {hint !== undefined && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      {note !== undefined && (
        <p id={noteId} className="field-hint field-note">
          {note}
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
