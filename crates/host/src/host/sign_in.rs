//! Signing in to an OAuth-protected HTTP server and signing out, as [`Host`] operations (see
//! [`crate::connections::sign_in`] for what the engine knows of a sign-in): through a person's
//! browser, or at the enterprise identity provider, each recorded as a `connection` row in the
//! audit log.
//!
//! `Host::auth_status`; `Host::sign_in(server, prompt)`, the code flow through the prompt (or, for
//! an enterprise-managed server, the OpenID Connect sign-in at the IdP and the token exchange),
//! after which the live session is restarted; `Host::sign_out`; and `Host::forget_idp_sign_in`.
//! Each is audited as a `connection` row without tokens.

use crate::connections::oauth_connection::{authorization_error, authorizer, idp_client};
use crate::connections::sign_in::AuthStatus;
use crate::error::{HostError, Result};
use crate::host::Host;
use crate::oversight::audit::{AuditEvent, AuditKind};
use crate::store::registry::model::{OAuthGrant, ServerConfig, ServerSpec};
use crate::store::secrets::oauth;
use gatehouse_mcp::auth::{AuthorizationPrompt, http_client, idp};
use serde_json::json;
use std::sync::Arc;

/// The URL of an HTTP server; a stdio server has no sign-in.
fn http_url(config: &ServerConfig) -> Result<url::Url> {
    match &config.spec {
        ServerSpec::Http { url, .. } => url::Url::parse(url)
            .map_err(|e| HostError::Validation(format!("invalid URL `{url}`: {e}"))),
        ServerSpec::Stdio { .. } => Err(HostError::Validation(format!(
            "`{}` is a stdio server; only HTTP servers sign in with OAuth",
            config.name
        ))),
    }
}

impl Host {
    /// The sign-in state of the HTTP server with this id or name (a stdio server is a
    /// validation error).
    pub async fn auth_status(&self, id_or_name: &str) -> Result<AuthStatus> {
        let config = self.registry().get(id_or_name).await?;
        http_url(&config)?;
        let tokens = oauth::tokens(self.registry().secrets(), &config.id).await?;
        let mut status = AuthStatus::of(tokens.as_ref());
        if let ServerSpec::Http {
            oauth: settings, ..
        } = &config.spec
        {
            status.grant = settings.grant.as_str().to_owned();
            if settings.grant == OAuthGrant::EnterpriseManaged
                && let (Some(issuer), Some(client_id)) =
                    (&settings.idp_issuer, &settings.idp_client_id)
            {
                let session =
                    oauth::idp_session(self.registry().secrets(), issuer, client_id).await?;
                status.idp_issuer = Some(issuer.clone());
                status.idp_signed_in =
                    Some(session.is_some_and(|s| !s.expired() || s.refresh_token.is_some()));
            }
        }
        Ok(status)
    }

    /// Signs in to the HTTP server: runs discovery, registration and the authorization code
    /// flow with `prompt` (the person's browser), keeps the tokens in the keyring, then
    /// reconnects the server's session (restart_server) and returns the new status. Audited (a
    /// `connection` row with the issuer and scopes; no token in it).
    pub async fn sign_in(
        &self,
        id_or_name: &str,
        prompt: Arc<dyn AuthorizationPrompt>,
    ) -> Result<AuthStatus> {
        let config = self.registry().get(id_or_name).await?;
        let url = http_url(&config)?;
        let signed = match idp_client(&config, self.registry().secrets()).await? {
            Some(idp) => self.sign_in_enterprise(&config, &url, &idp, prompt).await,
            None => match authorizer(
                &config,
                &url,
                self.registry().shared_secrets(),
                Some(prompt),
            )
            .await
            {
                Ok(authorizer) => authorizer
                    .sign_in()
                    .await
                    .map_err(|e| authorization_error(&config.name, &e)),
                Err(e) => Err(e),
            },
        };
        if let Err(error) = signed {
            self.record_auth(&config, "sign_in_failed", Some(&error.to_string()), None)
                .await;
            return Err(error);
        }
        let status = self.auth_status(&config.id).await?;
        self.record_auth(&config, "signed_in", None, Some(&status))
            .await;
        self.reconnect_signed(&config).await?;
        Ok(status)
    }

    /// Enterprise-managed authorization: the server's tokens by exchanging the kept IdP sign-in's
    /// ID token (no browser at all when one is kept and still good), else after the person
    /// signs in at the identity provider through `prompt`, which is then kept for every server
    /// using that IdP. Never a browser at the server's authorization server.
    async fn sign_in_enterprise(
        &self,
        config: &ServerConfig,
        url: &url::Url,
        idp: &gatehouse_mcp::auth::IdpClient,
        prompt: Arc<dyn AuthorizationPrompt>,
    ) -> Result<()> {
        let secrets = self.registry().shared_secrets();
        let failed = |e: gatehouse_mcp::auth::AuthError| authorization_error(&config.name, &e);
        // The authorizer's machine grant reads the IdP sign-in from the keyring.
        let authorizer = authorizer(config, url, secrets.clone(), None).await?;
        let kept = oauth::idp_session(secrets.as_ref(), &idp.issuer, &idp.client_id).await?;
        if kept.is_some_and(|s| !s.expired()) {
            match authorizer.sign_in().await {
                Ok(()) => return Ok(()),
                Err(e) => tracing::info!(
                    "the kept sign-in at {} did not get tokens for {}: {e}; signing in there again",
                    idp.issuer,
                    config.name
                ),
            }
        }
        let http = http_client::auth_http_client().map_err(failed)?;
        let session = idp::sign_in(&http, idp, prompt.as_ref())
            .await
            .map_err(failed)?;
        oauth::put_idp_session(secrets.as_ref(), &session).await?;
        authorizer.sign_in().await.map_err(failed)
    }

    /// Forgets the kept sign-in at the enterprise identity provider of the server (for every
    /// server that uses it: they need a sign-in again once their tokens expire); the servers'
    /// own tokens stay. Nothing to forget for other servers. Audited.
    pub async fn forget_idp_sign_in(&self, id_or_name: &str) -> Result<()> {
        let config = self.registry().get(id_or_name).await?;
        http_url(&config)?;
        let ServerSpec::Http {
            oauth: settings, ..
        } = &config.spec
        else {
            return Ok(());
        };
        if let (OAuthGrant::EnterpriseManaged, Some(issuer), Some(client_id)) = (
            settings.grant,
            &settings.idp_issuer,
            &settings.idp_client_id,
        ) {
            oauth::delete_idp_session(self.registry().secrets(), issuer, client_id).await?;
            self.record_auth(&config, "idp_signed_out", None, None)
                .await;
        }
        Ok(())
    }

    /// Deletes the server's tokens from the keyring (the client registration per issuer stays)
    /// and reconnects it. Audited.
    pub async fn sign_out(&self, id_or_name: &str) -> Result<()> {
        let config = self.registry().get(id_or_name).await?;
        http_url(&config)?;
        let before = self.auth_status(&config.id).await?;
        oauth::delete_tokens(self.registry().secrets(), &config.id).await?;
        self.record_auth(&config, "signed_out", None, Some(&before))
            .await;
        self.reconnect_signed(&config).await?;
        Ok(())
    }

    /// Reconnects a live, enabled server so its session uses the new (or no) tokens.
    async fn reconnect_signed(&self, config: &ServerConfig) -> Result<()> {
        if self.is_live() && config.enabled {
            self.restart_server(&config.id).await?;
        }
        Ok(())
    }

    async fn record_auth(
        &self,
        config: &ServerConfig,
        auth: &str,
        error: Option<&str>,
        status: Option<&AuthStatus>,
    ) {
        let mut detail = json!({ "auth": auth });
        if let Some(status) = status {
            detail["issuer"] = json!(status.issuer);
            detail["scopes"] = json!(status.scopes);
        }
        if let Some(error) = error {
            detail["error"] = json!(error);
        }
        let event = AuditEvent {
            kind: AuditKind::Connection,
            server: Some(config.name.clone()),
            source: Some("user".to_owned()),
            error_type: error.map(|_| "authorization".to_owned()),
            transport: Some("tcp".to_owned()),
            detail,
            ..AuditEvent::default()
        };
        if let Err(e) = self.audit().append(event).await {
            tracing::warn!("cannot record a sign-in in the audit log: {e}");
        }
    }
}
