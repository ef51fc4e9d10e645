// The optional OAuth client of an HTTP server, folded away by default: a client registered
// beforehand with the server's authorization server (its issuer, id and secret; the secret goes
// to the OS keyring), or the URL of Gatehouse's client metadata document; and whether a person
// signs in or the client's own credentials get the tokens (with its secret or an ES256 private
// key, also kept in the keyring), a workload's JWT read from a file (workload identity), or a
// sign-in at the organization's identity provider exchanged for the server's tokens
// (enterprise-managed; the IdP client secret also in the keyring). Left empty, Gatehouse
// registers itself when you sign in.

import type { OAuthGrant } from "../api/gatehouse";
import type { ServerFormErrors, ServerFormValues } from "../model/serverFormValues";
import { FormField } from "./FormField";

export type OAuthField =
  | "oauthIssuer"
  | "oauthClientId"
  | "oauthClientSecret"
  | "oauthClientMetadataUrl"
  | "oauthPrivateKey"
  | "oauthAssertionFile"
  | "oauthIdpIssuer"
  | "oauthIdpClientId"
  | "oauthIdpClientSecret";

type OAuthClientFieldsProps = {
  values: ServerFormValues;
  errors: ServerFormErrors;
  onChange: (field: OAuthField, value: string) => void;
  onGrantChange: (grant: OAuthGrant) => void;
};

const GRANTS: { value: OAuthGrant; label: string }[] = [
  { value: "authorizationCode", label: "A person signs in through the browser" },
  { value: "clientCredentials", label: "The client's own credentials, nobody signs in" },
  { value: "jwtBearer", label: "Workload identity: a JWT from a file, nobody signs in" },
  { value: "enterpriseManaged", label: "Enterprise-managed: sign in once at the organization's identity provider" },
];

type TextField = { field: OAuthField; label: string; hint: string; placeholder: string };

/** The workload identity grant's own field. */
const WORKLOAD_FIELDS: TextField[] = [
  {
    field: "oauthAssertionFile",
    label: "Workload token file",
    hint: "The absolute path of the file holding the workload's JWT (a Kubernetes projected token, a CI OIDC token). Read again each time tokens are requested, as such tokens rotate.",
    placeholder: "/var/run/secrets/tokens/mcp-token",
  },
];

/** The enterprise-managed grant's identity provider fields. */
const IDP_FIELDS: TextField[] = [
  {
    field: "oauthIdpIssuer",
    label: "Identity provider",
    hint: "The issuer URL of your organization's identity provider (OpenID Connect). Signing in there once serves every server that uses it.",
    placeholder: "https://login.example.com",
  },
  { field: "oauthIdpClientId", label: "Identity provider client id", hint: "The id your identity provider gave Gatehouse.", placeholder: "" },
];

const TEXT_FIELDS: TextField[] = [
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

export function OAuthClientFields({ values, errors, onChange, onGrantChange }: OAuthClientFieldsProps) {
  const configured =
    values.oauthGrant !== "authorizationCode" ||
    [values.oauthIssuer, values.oauthClientId, values.oauthClientMetadataUrl].some((v) => v !== "");
  return (
    <details className="form-details" open={configured || Object.keys(errors).some((k) => k.startsWith("oauth"))}>
      <summary data-testid="server-oauth-toggle">OAuth client (optional)</summary>
      <p className="muted">Leave empty and Gatehouse registers itself with the server's authorization server when you sign in.</p>
      <FormField label="Tokens">
        {(control) => (
          <select
            {...control}
            className="input"
            data-testid="server-oauthGrant"
            value={values.oauthGrant}
            onChange={(e) => {
              const grant = GRANTS.find((g) => g.value === e.target.value);
              if (grant !== undefined) onGrantChange(grant.value);
            }}
          >
            {GRANTS.map((g) => (
              <option key={g.value} value={g.value}>
                {g.label}
              </option>
            ))}
          </select>
        )}
      </FormField>
      {TEXT_FIELDS.map((f) => textField(f, values, errors, onChange))}
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
      {values.oauthGrant === "clientCredentials" && (
        <FormField
          label="Client private key"
          optional
          error={errors.oauthPrivateKey}
          hint={
            values.storedOAuthPrivateKey
              ? "A key is kept in the OS keyring; leave empty to keep it, or paste a new one."
              : "An ES256 private key (PEM) for private_key_jwt, instead of a secret. Kept in the OS keyring."
          }
        >
          {(control) => (
            <textarea
              {...control}
              className="input mono"
              data-testid="server-oauthPrivateKey"
              rows={3}
              value={values.oauthPrivateKey}
              onChange={(e) => onChange("oauthPrivateKey", e.target.value)}
              placeholder={values.storedOAuthPrivateKey ? "(kept)" : "-----BEGIN PRIVATE KEY-----"}
              spellCheck={false}
            />
          )}
        </FormField>
      )}
      {values.oauthGrant === "jwtBearer" && WORKLOAD_FIELDS.map((f) => textField(f, values, errors, onChange))}
      {values.oauthGrant === "enterpriseManaged" && (
        <>
          {IDP_FIELDS.map((f) => textField(f, values, errors, onChange))}
          <FormField
            label="Identity provider client secret"
            optional
            error={errors.oauthIdpClientSecret}
            hint={
              values.storedIdpSecret
                ? "A secret is kept in the OS keyring; leave empty to keep it, or type a new one."
                : "Only if the identity provider made Gatehouse a confidential client. Kept in the OS keyring."
            }
          >
            {(control) => (
              <input
                {...control}
                type="password"
                className="input mono"
                data-testid="server-oauthIdpClientSecret"
                value={values.oauthIdpClientSecret}
                onChange={(e) => onChange("oauthIdpClientSecret", e.target.value)}
                placeholder={values.storedIdpSecret ? "(kept)" : ""}
                autoComplete="off"
              />
            )}
          </FormField>
        </>
      )}
    </details>
  );
}

function textField(
  { field, label, hint, placeholder }: TextField,
  values: ServerFormValues,
  errors: ServerFormErrors,
  onChange: (field: OAuthField, value: string) => void,
) {
  return (
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
  );
}
