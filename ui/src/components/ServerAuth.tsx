// The Sign-in tab of an HTTP server's detail: whether Gatehouse holds tokens for it, from which
// authorization server, for which scopes and until when, with Sign in and Sign out. The tokens
// themselves stay in the OS keyring and are never shown. A server with enterprise-managed
// authorization also shows whether the sign-in at its identity provider is kept: signing in then
// happens there, once for every server using it.

import { errorMessage } from "../api/GatehouseError";
import type { ServerAuth as ServerAuthState } from "../hooks/useServerAuth";
import { useNow } from "../hooks/useNow";
import { localDateTime } from "../model/formatTaskTime";
import { ErrorBanner } from "./ErrorBanner";

type ServerAuthProps = { auth: ServerAuthState };

/** When the access token expires, in words: "in 12 min", "expired", or the local date and time. */
export function expiryText(expiresAt: string, now: number): string {
  const at = Date.parse(expiresAt);
  if (Number.isNaN(at)) return expiresAt;
  const left = at - now;
  if (left <= 0) return "expired";
  if (left < 60_000) return "in less than a minute";
  if (left < 3_600_000) return `in ${Math.floor(left / 60_000)} min`;
  return localDateTime(expiresAt);
}

export function ServerAuth({ auth }: ServerAuthProps) {
  const now = useNow(30_000);
  const { status, signIn, signOut, forgetIdp } = auth;
  const busy = signIn.isPending || signOut.isPending || forgetIdp.isPending;
  const error = signIn.error ?? signOut.error ?? forgetIdp.error;
  const state = status.data;
  return (
    <section className="server-auth" data-testid="server-auth" aria-labelledby="auth-heading">
      <h3 id="auth-heading">Sign-in</h3>
      {error !== null && (
        <ErrorBanner
          message={`${signIn.error !== null ? "Signing in" : "Signing out"} failed: ${errorMessage(error)}`}
          onDismiss={() => {
            signIn.reset();
            signOut.reset();
            forgetIdp.reset();
          }}
        />
      )}
      {status.error !== null && <ErrorBanner message={`Cannot read the sign-in state: ${errorMessage(status.error)}`} />}
      {state === undefined ? (
        <p className="muted">{status.isPending ? "Loading…" : ""}</p>
      ) : state.signedIn ? (
        <dl className="auth-facts" data-testid="auth-signed-in">
          <dt>State</dt>
          <dd>Signed in{state.refreshable ? " (renewed automatically)" : ""}</dd>
          <dt>Authorization server</dt>
          <dd className="mono">{state.issuer ?? "unknown"}</dd>
          <dt>Scopes</dt>
          <dd>
            {state.scopes.length > 0 ? (
              <ul className="auth-scopes">
                {state.scopes.map((scope) => (
                  <li key={scope} className="auth-scope mono">
                    {scope}
                  </li>
                ))}
              </ul>
            ) : (
              <span className="muted">none requested</span>
            )}
          </dd>
          <dt>Access expires</dt>
          <dd data-testid="auth-expiry">{state.expiresAt === null ? "not said by the server" : expiryText(state.expiresAt, now)}</dd>
        </dl>
      ) : (
        <p className="muted" data-testid="auth-signed-out">
          Not signed in. Servers that need it show “Authorization required”; signing in opens the server's
          sign-in page in your browser.
        </p>
      )}
      {typeof state?.idpIssuer === "string" && (
        <p className="muted" data-testid="auth-idp">
          Signing in happens at the identity provider <span className="mono">{state.idpIssuer}</span>:{" "}
          {state.idpSignedIn === true
            ? "a sign-in there is kept and serves every server that uses it."
            : "not signed in there (or the sign-in expired)."}
        </p>
      )}
      {signIn.isPending && (
        <p className="notice" role="status" data-testid="auth-waiting">
          Finish signing in in your browser. Gatehouse waits up to five minutes.
        </p>
      )}
      <div className="connection-actions">
        <button
          type="button"
          className="button button-primary"
          onClick={() => signIn.mutate()}
          disabled={busy}
          data-testid="auth-sign-in"
        >
          {signIn.isPending ? "Waiting for the browser…" : state?.signedIn === true ? "Sign in again" : "Sign in"}
        </button>
        {state?.signedIn === true && (
          <button type="button" className="button" onClick={() => signOut.mutate()} disabled={busy} data-testid="auth-sign-out">
            Sign out
          </button>
        )}
        {state?.idpSignedIn === true && (
          <button type="button" className="button" onClick={() => forgetIdp.mutate()} disabled={busy} data-testid="auth-forget-idp">
            Forget identity provider sign-in
          </button>
        )}
      </div>
    </section>
  );
}
