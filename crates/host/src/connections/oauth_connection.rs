//! The OAuth side of an HTTP server's connection: the [`Authorizer`] the host attaches, with the
//! server's tokens in the keyring ([`KeyringTokenStore`], keyed by the server's id), and how an
//! [`AuthError`] reads as a [`HostError`].
//!
//! A background connection (the app's live sessions, the CLI's commands) gets no prompt: kept
//! tokens are sent, refreshed when due and once on a 401, and a step-up or a first sign-in fails
//! the connection with HTTP status 401, which the sessions show as `AuthRequired` until the
//! person signs in ([`crate::Host::sign_in`]). A server without OAuth never answers 401, so the
//! authorizer only costs one keyring read per connection there.
//!
//! `auth_config` turns a server's OAuth client settings into the authorizer's `AuthConfig`: a
//! pre-registered client, a client metadata document URL, the client credentials grant, the
//! workload token file, or the enterprise identity provider with its client secret. An `AuthError`
//! becomes `HostError::Authorization` (code `authorization`), saying what to do.

use std::sync::Arc;

use gatehouse_mcp::Sensitive;
use gatehouse_mcp::auth::{
    AuthConfig, AuthError, AuthorizationPrompt, Authorizer, ClientCredentials, IdpClient,
    MachineGrant, TokenEndpointAuth,
};

use crate::connections::grant_sources::{IdpSignIn, WorkloadToken};
use crate::error::{HostError, Result};
use crate::store::registry::model::{OAuthGrant, ServerConfig, ServerSpec};
use crate::store::registry::secret_values::{CLIENT_SECRET, IDP_CLIENT_SECRET, PRIVATE_KEY};
use crate::store::secrets::{KeyringTokenStore, SecretKey, SecretKind, SecretStore};

/// The authorizer of `config`'s connection to `url`; `prompt` is `None` for background
/// connections.
pub async fn authorizer(
    config: &ServerConfig,
    url: &url::Url,
    secrets: Arc<dyn SecretStore>,
    prompt: Option<Arc<dyn AuthorizationPrompt>>,
) -> Result<Authorizer> {
    let auth = auth_config(config, &secrets).await?;
    let store = Arc::new(KeyringTokenStore::new(secrets));
    Authorizer::new(url.clone(), auth, store, prompt)
        .map(|a| a.with_store_key(config.id.clone()))
        .map_err(|e| authorization_error(&config.name, &e))
}

/// How Gatehouse presents itself to the server's authorization server: the client configured
/// for it (its secret read from the keyring) and the client metadata document URL, if any;
/// otherwise it registers itself (2025-11-25 basic/authorization, "Client Registration
/// Approaches": pre-registered first, then a metadata document, then dynamic registration).
async fn auth_config(config: &ServerConfig, shared: &Arc<dyn SecretStore>) -> Result<AuthConfig> {
    let secrets = shared.as_ref();
    let ServerSpec::Http { oauth, .. } = &config.spec else {
        return Ok(AuthConfig::default());
    };
    let mut auth = AuthConfig {
        client_metadata_url: oauth.client_metadata_url.clone(),
        ..AuthConfig::default()
    };
    if let (Some(issuer), Some(client_id)) = (&oauth.issuer, &oauth.client_id) {
        let client_secret = match &oauth.client_secret {
            None => None,
            Some(_) => Some(kept(secrets, config, CLIENT_SECRET).await?),
        };
        auth.machine_grant = match oauth.grant {
            // extensions/auth, "OAuth Client Credentials": tokens with no person, the client
            // authenticated by its secret or by a JWT signed with its key.
            OAuthGrant::ClientCredentials => Some(match &oauth.private_key {
                Some(_) => MachineGrant::ClientCredentialsJwt {
                    private_key_pem: kept(secrets, config, PRIVATE_KEY).await?,
                },
                None => MachineGrant::ClientCredentials,
            }),
            // Workload identity federation: the workload's JWT, read when tokens are requested.
            OAuthGrant::JwtBearer => oauth
                .assertion_file
                .as_ref()
                .map(|path| MachineGrant::Deferred(Arc::new(WorkloadToken::new(path)))),
            // extensions/auth/enterprise-managed-authorization: the kept IdP sign-in's ID token
            // is exchanged for an ID-JAG, and that for tokens; never a browser at the MCP AS.
            OAuthGrant::EnterpriseManaged => idp_client(config, secrets)
                .await?
                .map(|idp| MachineGrant::Deferred(Arc::new(IdpSignIn::new(shared.clone(), idp)))),
            OAuthGrant::AuthorizationCode => None,
        };
        let auth_method = if client_secret.is_some() {
            TokenEndpointAuth::ClientSecretBasic
        } else {
            TokenEndpointAuth::None
        };
        auth.preregistered.push(ClientCredentials {
            issuer: issuer.clone(),
            client_id: client_id.clone(),
            client_secret,
            auth_method,
        });
    }
    Ok(auth)
}

/// The client Gatehouse is at the enterprise identity provider of a server with
/// enterprise-managed authorization (its secret from the keyring); `None` for other servers.
pub async fn idp_client(
    config: &ServerConfig,
    secrets: &dyn SecretStore,
) -> Result<Option<IdpClient>> {
    let ServerSpec::Http { oauth, .. } = &config.spec else {
        return Ok(None);
    };
    let (OAuthGrant::EnterpriseManaged, Some(issuer), Some(client_id)) =
        (oauth.grant, &oauth.idp_issuer, &oauth.idp_client_id)
    else {
        return Ok(None);
    };
    let client_secret = match &oauth.idp_client_secret {
        None => None,
        Some(_) => Some(kept(secrets, config, IDP_CLIENT_SECRET).await?),
    };
    Ok(Some(IdpClient {
        issuer: issuer.clone(),
        client_id: client_id.clone(),
        client_secret,
    }))
}

/// The OAuth client secret `name` of the server, from the keyring.
async fn kept(
    secrets: &dyn SecretStore,
    config: &ServerConfig,
    name: &str,
) -> Result<Sensitive<String>> {
    let key = SecretKey::Value {
        server_id: config.id.clone(),
        kind: SecretKind::OAuthClientSecret,
        name: name.to_owned(),
    };
    secrets.get(&key).await?.ok_or_else(|| {
        HostError::Secrets(format!(
            "the OAuth {name} of server `{}` is missing from the OS keyring; edit the server and \
             enter it again",
            config.name
        ))
    })
}

/// `error` from authorizing server `name`, with what to do about it.
pub fn authorization_error(name: &str, error: &AuthError) -> HostError {
    let hint = match error {
        AuthError::NeedsUser | AuthError::NeedsUserForScopes { .. } => {
            format!("sign in to it from the Gatehouse app or with `gatehouse auth login {name}`")
        }
        AuthError::Store(_) => {
            "make sure the OS keyring is available and unlocked, then sign in again".to_owned()
        }
        AuthError::Authorization(_) => "sign in again, and finish the sign-in in the browser \
             (allow Gatehouse's access when asked)"
            .to_owned(),
        AuthError::ResourceMismatch { .. } | AuthError::IssuerMismatch { .. } => {
            "the server's authorization setup is inconsistent; tell its operator".to_owned()
        }
        // 2025-11-25 basic/authorization, "Client Registration Approaches": with no way to
        // register, the person is asked for the client's details.
        AuthError::Registration { issuer, .. } => format!(
            "register Gatehouse as a client with {issuer} yourself, then enter its issuer, client \
             id and secret in the server's OAuth client settings (in the app's server form, or \
             `gatehouse server add {name} --url … --oauth-issuer {issuer} --oauth-client-id …`)"
        ),
        AuthError::Credential(_) => "fix the file or setting named above (the server's OAuth \
             client settings), then connect again"
            .to_owned(),
        AuthError::Discovery(_) | AuthError::Token(_) | AuthError::Http(_) => {
            "check that the server and its authorization server are \
             reachable and that the server's URL is right, then sign in again"
                .to_owned()
        }
    };
    HostError::Authorization {
        server: name.to_owned(),
        detail: error.to_string(),
        hint,
    }
}
