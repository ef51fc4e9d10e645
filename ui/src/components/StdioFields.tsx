// Form fields for a stdio server: command, arguments, plain and secret environment variables,
// working directory.

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
      <FormField
        label="Stop: wait after closing stdin (seconds)"
        error={errors.stopGrace}
        hint="Stopping closes the server's input, waits this long, then sends SIGTERM to its processes."
      >
        {(control) => (
          <input
            {...control}
            type="text"
            inputMode="decimal"
            className="input mono"
            data-testid="server-stop-grace"
            value={values.stopGrace}
            onChange={(e) => onChange("stopGrace", e.target.value)}
          />
        )}
      </FormField>
      <FormField
        label="Stop: wait after SIGTERM (seconds)"
        error={errors.termGrace}
        hint="Then SIGKILL ends whatever is left."
      >
        {(control) => (
          <input
            {...control}
            type="text"
            inputMode="decimal"
            className="input mono"
            data-testid="server-term-grace"
            value={values.termGrace}
            onChange={(e) => onChange("termGrace", e.target.value)}
          />
        )}
      </FormField>
    </>
  );
}
