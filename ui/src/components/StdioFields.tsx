// Form fields for a stdio server: command, arguments, plain and secret environment variables,
// working directory, and the two waits of a graceful stop.

import type { ServerFormErrors, ServerFormValues } from "../model/serverFormValues";
import { FormField } from "./FormField";
import { SecretLinesField } from "./SecretLinesField";

type StdioFieldsProps = {
  values: ServerFormValues;
  errors: ServerFormErrors;
  onChange: (field: "command" | "args" | "env" | "secretEnv" | "cwd" | "stopGrace" | "termGrace", value: string) => void;
};

export function StdioFields({ values, errors, onChange }: StdioFieldsProps) {
  return (
    <>
      <FormField label="Command" error={errors.command} hint="The program to launch, e.g. npx, uvx, node or a full path.">
        {(control) => (
          <input
            {...control}
            type="text"
            className="input mono"
            data-testid="server-command"
            value={values.command}
            onChange={(e) => onChange("command", e.target.value)}
            placeholder="npx"
            autoComplete="off"
            spellCheck={false}
          />
        )}
      </FormField>
      <FormField label="Arguments" optional hint="One argument per line, no quoting needed.">
        {(control) => (
          <textarea
            {...control}
            className="input mono"
            data-testid="server-args"
            rows={3}
            value={values.args}
            onChange={(e) => onChange("args", e.target.value)}
            placeholder={"-y\n@modelcontextprotocol/server-everything"}
            spellCheck={false}
          />
        )}
      </FormField>
      <FormField
        label="Environment variables"
        optional
        error={errors.env}
        hint="One KEY=VALUE per line, stored in Gatehouse's database. Put API keys under Secret environment variables."
      >
        {(control) => (
          <textarea
            {...control}
            className="input mono"
            data-testid="server-env"
            rows={3}
            value={values.env}
            onChange={(e) => onChange("env", e.target.value)}
            placeholder="DEBUG=1"
            spellCheck={false}
          />
        )}
      </FormField>
      <SecretLinesField
        label="Secret environment variables"
        testId="server-secret-env"
        keepExample="KEY="
        placeholder="API_KEY=…"
        value={values.secretEnv}
        error={errors.secretEnv}
        storedNames={values.storedSecretEnvKeys}
        onChange={(value) => onChange("secretEnv", value)}
      />
      <FormField label="Working directory" optional error={errors.cwd}>
        {(control) => (
          <input
            {...control}
            type="text"
            className="input mono"
            data-testid="server-cwd"
            value={values.cwd}
            onChange={(e) => onChange("cwd", e.target.value)}
            placeholder="/path/to/project"
            autoComplete="off"
            spellCheck={false}
          />
        )}
      </FormField>
      <SecondsField
        label="Stop: wait after closing stdin (seconds)"
        hint="Stopping closes the server's input, waits this long, then sends SIGTERM to its processes."
        testId="server-stop-grace"
        value={values.stopGrace}
        error={errors.stopGrace}
        onChange={(value) => onChange("stopGrace", value)}
      />
      <SecondsField
        label="Stop: wait after SIGTERM (seconds)"
        hint="Then SIGKILL ends whatever is left."
        testId="server-term-grace"
        value={values.termGrace}
        error={errors.termGrace}
        onChange={(value) => onChange("termGrace", value)}
      />
    </>
  );
}

type SecondsFieldProps = {
  label: string;
  hint: string;
  testId: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
};

/** A number of seconds, typed as text (the form checks it). */
function SecondsField({ label, hint, testId, value, error, onChange }: SecondsFieldProps) {
  return (
    <FormField label={label} error={error} hint={hint}>
      {(control) => (
        <input
          {...control}
          type="text"
          inputMode="decimal"
          className="input mono"
          data-testid={testId}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </FormField>
  );
}
