// The optional OAuth client of an HTTP server, folded away by default: a client registered
// beforehand with the server's authorization server (its issuer, id and secret; the secret goes
// to the OS keyring), or the URL of Gatehouse's client metadata document. Left empty, Gatehouse
// registers itself when it signs in.

import type { ServerFormErrors, ServerFormValues } from "../model/serverFormValues";
import { FormField } from "./FormField";

export type OAuthField = "oauthIssuer" | "oauthClientId" | "oauthClientSecret" | "oauthClientMetadataUrl";

type OAuthClientFieldsProps = {
  values: ServerFormValues;
  errors: ServerFormErrors;
  onChange: (field: OAuthField, value: string) => void;
};

const TEXT_FIELDS: { field: Exclude<OAuthField, "oauthClientSecret">; label: string; hint: string; placeholder: string }[] = [
  {
    field: "oauthIssuer",
    label: "Issuer",
    hint: "The authorization server the client is registered with; the client is used with no other.",
    placeholder: "https://auth.example.com",
  },
  { field: "oauthClientId", label: "Client id", hint: "The id the authorization server gave the client.", placeholder: "" },
  {
    field: "oauthClientMetadataUrl",
    label: "Client metadata URL",
    hint: "An https URL of Gatehouse's client metadata document, used as its client id where the authorization server supports them.",
    placeholder: "https://example.com/gatehouse-client.json",
  },
];

export function OAuthClientFields({ values, errors, onChange }: OAuthClientFieldsProps) {
  const configured = [values.oauthIssuer, values.oauthClientId, values.oauthClientMetadataUrl].some((v) => v !== "");
  return (
    <details className="form-details" open={configured || Object.keys(errors).some((k) => k.startsWith("oauth"))}>
      <summary data-testid="server-oauth-toggle">OAuth client (optional)</summary>
      <p className="muted">Leave empty and Gatehouse registers itself with the server's authorization server when you sign in.</p>
      {TEXT_FIELDS.map(({ field, label, hint, placeholder }) => (
        <FormField key={field} label={label} optional error={errors[field]} hint={hint}>
          {(control) => (
            <input
              {...control}
              className="input mono"
              data-testid={`server-${field}`}
              value={values[field]}
              onChange={(e) => onChange(field, e.target.value)}
              placeholder={placeholder}
              autoComplete="off"
              spellCheck={false}
            />
          )}
        </FormField>
      ))}
      <FormField
        label="Client secret"
        optional
        error={errors.oauthClientSecret}
        hint={
          values.storedOAuthSecret
            ? "A secret is kept in the OS keyring; leave empty to keep it, or type a new one."
            : "Only for a confidential client. Kept in the OS keyring, never in Gatehouse's database."
        }
      >
        {(control) => (
          <input
            {...control}
            type="password"
            className="input mono"
            data-testid="server-oauthClientSecret"
            value={values.oauthClientSecret}
            onChange={(e) => onChange("oauthClientSecret", e.target.value)}
            placeholder={values.storedOAuthSecret ? "(kept)" : ""}
            autoComplete="off"
          />
        )}
      </FormField>
    </details>
  );
}
