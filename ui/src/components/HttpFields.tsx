// Form fields for an HTTP server: URL, transport, plain and secret request headers, and the
// optional OAuth client.

import type { OAuthGrant, Transport } from "../api/gatehouse";
import { TRANSPORTS } from "../model/serverFormValues";
import type { ServerFormErrors, ServerFormValues } from "../model/serverFormValues";
import { FormField } from "./FormField";
import { type OAuthField, OAuthClientFields } from "./OAuthClientFields";
import { SecretLinesField } from "./SecretLinesField";

type HttpFieldsProps = {
  values: ServerFormValues;
  errors: ServerFormErrors;
  onChange: (field: "url" | "headers" | "secretHeaders" | OAuthField, value: string) => void;
  onTransportChange: (transport: Transport) => void;
  onGrantChange: (grant: OAuthGrant) => void;
};

function isTransport(value: string): value is Transport {
  return TRANSPORTS.some((t) => t.value === value);
}

export function HttpFields({ values, errors, onChange, onTransportChange, onGrantChange }: HttpFieldsProps) {
  return (
    <>
      <FormField label="URL" error={errors.url} hint="The server's MCP endpoint, http:// or https://.">
        {(control) => (
          <input
            {...control}
            type="url"
            className="input mono"
            data-testid="server-url"
            value={values.url}
            onChange={(e) => onChange("url", e.target.value)}
            placeholder="https://example.com/mcp"
            autoComplete="off"
            spellCheck={false}
          />
        )}
      </FormField>
      <FormField label="Transport">
        {(control) => (
          <select
            {...control}
            className="input"
            data-testid="server-transport"
            value={values.transport}
            onChange={(e) => {
              if (isTransport(e.target.value)) onTransportChange(e.target.value);
            }}
          >
            {TRANSPORTS.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField
        label="Headers"
        optional
        error={errors.headers}
        hint={'One "Name: value" per line, stored in Gatehouse\'s database. Put tokens under Secret headers.'}
      >
        {(control) => (
          <textarea
            {...control}
            className="input mono"
            data-testid="server-headers"
            rows={3}
            value={values.headers}
            onChange={(e) => onChange("headers", e.target.value)}
            placeholder="X-Client: gatehouse"
            spellCheck={false}
          />
        )}
      </FormField>
      <SecretLinesField
        label="Secret headers"
        testId="server-secret-headers"
        keepExample="Name:"
        placeholder="Authorization: Bearer …"
        value={values.secretHeaders}
        error={errors.secretHeaders}
        storedNames={values.storedSecretHeaderNames}
        onChange={(value) => onChange("secretHeaders", value)}
      />
      <OAuthClientFields values={values} errors={errors} onChange={onChange} onGrantChange={onGrantChange} />
    </>
  );
}
