// The engine's settings: how long a request waits for a person, the stop graces a new stdio
// server gets, how often live connections are checked, and how many days of the audit log are
// kept (pruned daily, leaving an anchor the chain verifies from). Saved together; the engine
// applies them at once and refuses a value out of range with a message naming it.

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { FormEvent } from "react";
import * as api from "../../api/gatehouse";
import type { EngineSettings } from "../../api/gatehouse";
import { errorMessage } from "../../api/GatehouseError";
import { readSettings, valuesFromSettings } from "../../model/engineSettingsForm";
import type { EngineSettingsErrors, EngineSettingsValues } from "../../model/engineSettingsForm";
import { ErrorBanner } from "../ErrorBanner";
import { FormField } from "../FormField";

export const ENGINE_SETTINGS = ["settings", "engine"] as const;

type Field = { key: keyof EngineSettingsValues; label: string; hint: string; optional?: boolean };

const FIELDS: Field[] = [
  { key: "approvalTimeout", label: "Approval timeout (seconds)", hint: "How long a request waits for your answer before it is denied. The next request asked about uses it." },
  { key: "stopGrace", label: "Stop: wait after closing stdin (seconds)", hint: "For new stdio servers: how long stopping one waits after closing its stdin, before SIGTERM." },
  { key: "termGrace", label: "Stop: wait after SIGTERM (seconds)", hint: "Then how long it waits before SIGKILL." },
  { key: "healthEvery", label: "Health-check interval (seconds)", hint: "How often each live connection is pinged; changing it re-arms the checks now." },
  { key: "retentionDays", label: "Keep the audit log (days)", hint: "Older rows are pruned daily, leaving an anchor the chain verifies from. Empty keeps everything.", optional: true },
];

export function EngineSettingsForm() {
  const settings = useQuery({ queryKey: ENGINE_SETTINGS, queryFn: () => api.engineSettings() });
  if (settings.isPending) return <p className="muted">Reading the engine's settings…</p>;
  if (settings.error !== null) {
    return <ErrorBanner message={`Could not read the engine's settings: ${errorMessage(settings.error)}`} onRetry={() => void settings.refetch()} />;
  }
  return <Form stored={settings.data} />;
}

function Form({ stored }: { stored: EngineSettings }) {
  const queries = useQueryClient();
  const [values, setValues] = useState<EngineSettingsValues>(() => valuesFromSettings(stored));
  const [errors, setErrors] = useState<EngineSettingsErrors>({});
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: (next: EngineSettings) => api.setEngineSettings(next),
    onSuccess: (now) => {
      queries.setQueryData(ENGINE_SETTINGS, now);
      setValues(valuesFromSettings(now));
      setSaved(true);
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const read = readSettings(values);
    if (!read.ok) {
      setErrors(read.errors);
      return;
    }
    setErrors({});
    save.mutate(read.settings);
  };

  return (
    <form className="engine-settings" onSubmit={submit} aria-label="Engine settings" data-testid="engine-settings" noValidate>
      {FIELDS.map((field) => (
        <FormField key={field.key} label={field.label} hint={field.hint} error={errors[field.key]} optional={field.optional ?? false}>
          {(control) => (
            <input
              {...control}
              className="input"
              inputMode="decimal"
              data-testid={`setting-${field.key}`}
              value={values[field.key]}
              onChange={(e) => {
                setSaved(false);
                setValues((old) => ({ ...old, [field.key]: e.target.value }));
              }}
            />
          )}
        </FormField>
      ))}
      {save.error !== null && <ErrorBanner message={`Could not save the settings: ${errorMessage(save.error)}`} />}
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={save.isPending} data-testid="engine-settings-save">
          {save.isPending ? "Saving…" : "Save"}
        </button>
        {saved && (
          <span className="muted" role="status">
            Saved and applied.
          </span>
        )}
      </div>
    </form>
  );
}
