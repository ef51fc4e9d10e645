// Add/Edit server dialog: keeps everything the user typed, validates client-side,
// and shows the engine's error message when saving fails.

import { useState } from "react";
import type { FormEvent } from "react";
import type { ServerInput } from "../api/gatehouse";
import { errorMessage, GatehouseError, type GatehouseErrorCode } from "../api/GatehouseError";
import { buildServerInput } from "../model/buildServerInput";
import type { ServerFormErrors, ServerFormField, ServerFormValues, ServerKind } from "../model/serverFormValues";
import { Dialog } from "./Dialog";
import { FormField } from "./FormField";
import { HttpFields } from "./HttpFields";
import { KindSwitch } from "./KindSwitch";
import { RootsField } from "./RootsField";
import { StdioFields } from "./StdioFields";

type ServerFormDialogProps = {
  mode: "add" | "edit";
  initialValues: ServerFormValues;
  /** Saves the server; must throw (GatehouseError) on failure so the dialog can stay open. */
  onSubmit: (input: ServerInput) => Promise<void>;
  onClose: () => void;
};

type SubmitError = { code: GatehouseErrorCode; message: string };

export function ServerFormDialog({ mode, initialValues, onSubmit, onClose }: ServerFormDialogProps) {
  const [values, setValues] = useState<ServerFormValues>(initialValues);
  const [errors, setErrors] = useState<ServerFormErrors>({});
  const [submitError, setSubmitError] = useState<SubmitError | null>(null);
  const [saving, setSaving] = useState(false);

  const setField = (field: ServerFormField, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    // The user is fixing this field: drop its stale message.
    setErrors((prev) => {
      const next = { ...prev };
      delete next[field];
      return next;
    });
  };
  const setKind = (kind: ServerKind) => setValues((v) => ({ ...v, kind }));

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (saving) return;
    const built = buildServerInput(values);
    if (!built.ok) {
      setErrors(built.errors);
      setSubmitError(null);
      return;
    }
    setErrors({});
    setSubmitError(null);
    setSaving(true);
    try {
      await onSubmit(built.input);
    } catch (err) {
      const code = err instanceof GatehouseError ? err.code : "internal";
      setSubmitError({ code, message: errorMessage(err) });
      setSaving(false);
    }
  };

  const clientMessages = Object.values(errors).filter((m) => m !== undefined);
  const nameError = errors.name ?? (submitError?.code === "duplicate_name" ? submitError.message : undefined);

  return (
    <Dialog title={mode === "add" ? "Add server" : `Edit ${initialValues.name}`} onClose={onClose} size="large" testId="server-form">
      <form className="server-form" onSubmit={submit} noValidate>
        <div className="form-body">
          {(submitError !== null || clientMessages.length > 0) && (
            <div className="form-error" role="alert" data-testid="server-form-error">
              {submitError !== null ? (
                <p>{submitError.message}</p>
              ) : (
                <ul>
                  {clientMessages.map((m) => (
                    <li key={m}>{m}</li>
                  ))}
                </ul>
              )}
            </div>
          )}
          <FormField label="Name" error={nameError} hint="A unique name to recognise this server by.">
            {(control) => (
              <input
                {...control}
                type="text"
                className="input"
                data-testid="server-name"
                data-autofocus
                value={values.name}
                onChange={(e) => setField("name", e.target.value)}
                placeholder="everything"
                autoComplete="off"
              />
            )}
          </FormField>
          <KindSwitch kind={values.kind} onChange={setKind} />
          {values.kind === "stdio" ? (
            <StdioFields values={values} errors={errors} onChange={setField} />
          ) : (
            <HttpFields
              values={values}
              errors={errors}
              onChange={setField}
              onTransportChange={(transport) => setValues((v) => ({ ...v, transport }))}
              onGrantChange={(oauthGrant) => setValues((v) => ({ ...v, oauthGrant }))}
            />
          )}
          <RootsField value={values.roots} error={errors.roots} onChange={(value) => setField("roots", value)} />
          <label className="checkbox">
            <input
              type="checkbox"
              data-testid="server-enabled"
              checked={values.enabled}
              onChange={(e) => {
                const enabled = e.target.checked;
                setValues((v) => ({ ...v, enabled }));
              }}
            />
            <span>Enabled — connect to this server as soon as it is saved</span>
          </label>
        </div>
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" data-testid="server-save" disabled={saving}>
            {saving ? "Saving…" : mode === "add" ? "Add server" : "Save changes"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
