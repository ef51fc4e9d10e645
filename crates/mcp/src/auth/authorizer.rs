//! The per-server authorization state an HTTP transport consults: the bearer token for the next
//! request (refreshed shortly before it expires), and what to do when the server says 401 or 403
//! `insufficient_scope`. One authorization runs at a time per server; requests that were refused
//! meanwhile find the new token and retry without starting another.
//!
//! On a 401 the metadata is discovered afresh, so a server that moved to another authorization
//! server is followed (2026-07-28 client-registration, "Authorization Server Binding"): tokens
//! from the old issuer are dropped and the client registers anew there; a refresh is tried first
//! only when the issuer is unchanged and the refused token did not itself come from a refresh.
//! On a 403 `insufficient_scope` the scopes asked for are the union of the earlier ones and the
//! challenged ones (2026-07-28 basic/authorization, "Step-Up Authorization Flow"). Where no one
//! can be asked (no prompt, no machine grant) the challenged scopes are kept with the tokens
//! and the request fails as needing sign-in; the next [`Authorizer::sign_in`] requests them too.

use std::sync::Arc;
use std::time::Duration;

use url::Url;

use super::challenge::BearerChallenge;
use super::code_flow::{self, AuthorizationResponse};
use super::config::AuthConfig;
use super::discovery::{self, Discovery};
use super::dpop::DpopKey;
use super::http_client::{OAuthHttp, auth_http_client};
use super::kept_tokens::KeptTokens;
use super::machine_grant::{self, MachineGrant};
use super::metadata::AuthorizationServerMetadata;
use super::prompt::AuthorizationPrompt;
use super::store::{TokenStore, Tokens};
use super::{AuthError, probe, registration, scope};
use crate::Sensitive;
pub use crate::http_auth::AccessToken;

/// How long before its expiry an access token is refreshed.
const REFRESH_MARGIN: Duration = Duration::from_secs(60);

/// Authorization for one MCP server.
pub struct Authorizer {
    server: Url,
    config: AuthConfig,
    /// This server's tokens, as kept in the store.
    kept: KeptTokens,
    prompt: Option<Arc<dyn AuthorizationPrompt>>,
    http: reqwest::Client,
    /// The key DPoP-bound tokens are tied to, used where the authorization server offers DPoP.
    dpop: Arc<DpopKey>,
    /// Held while tokens are being obtained or refreshed.
    flow: tokio::sync::Mutex<Flow>,
}

#[derive(Default)]
struct Flow {
    /// The access token that came from the last refresh: if the server refuses it, the next
    /// step is a full authorization, not another refresh.
    refreshed: Option<Sensitive<String>>,
}

impl std::fmt::Debug for Authorizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Authorizer")
            .field("server", &self.server.as_str())
            .field("interactive", &self.prompt.is_some())
            .finish_non_exhaustive()
    }
}

impl Authorizer {
    /// `prompt` is `None` where no person can be asked: stored tokens and refreshes still work,
    /// anything needing a sign-in fails with [`AuthError::NeedsUser`].
    pub fn new(
        server: Url,
        config: AuthConfig,
        store: Arc<dyn TokenStore>,
        prompt: Option<Arc<dyn AuthorizationPrompt>>,
    ) -> Result<Self, AuthError> {
        let http = auth_http_client()?;
        Ok(Self {
            kept: KeptTokens::new(server.clone(), store),
            server,
            config,
            prompt,
            dpop: Arc::new(DpopKey::generate()?),
            http,
            flow: tokio::sync::Mutex::new(Flow::default()),
        })
    }

    /// Keys this server's tokens in the store by `key` instead of its URL (the host keys them
    /// by the server's id).
    pub fn with_store_key(mut self, key: impl Into<String>) -> Self {
        self.kept = self.kept.with_key(key);
        self
    }

    /// Whether this authorizer can ask a person to sign in.
    pub fn interactive(&self) -> bool {
        self.prompt.is_some()
    }

    /// Authorizes now, whatever tokens are kept: a person signs in (again) through the prompt,
    /// or the machine grant is used. The server is first asked without a token for its
    /// challenge (`resource_metadata`, `scope`); the scopes requested are the challenged (or
    /// advertised) ones together with those of kept tokens from the same issuer. The kept
    /// tokens are replaced only once new ones were granted.
    pub async fn sign_in(&self) -> Result<(), AuthError> {
        if self.prompt.is_none() && self.config.machine_grant.is_none() {
            return Err(AuthError::NeedsUser);
        }
        let mut flow = self.flow.lock().await;
        let www_authenticate =
            probe::challenge(&self.http, &self.server, &self.config.client_name).await;
        let challenge = BearerChallenge::from_headers(www_authenticate.iter().map(String::as_str));
        let discovery = discovery::discover(&self.http, &self.server, challenge.as_ref()).await?;
        self.kept.reread();
        // The kept scopes and those a 403 `insufficient_scope` asked for while no one could
        // sign in (2025-11-25 basic/authorization, "Scope Challenge Handling"; 2026-07-28
        // "Step-Up Authorization Flow"): without the latter, the person would sign in and meet
        // the same 403 again. The new tokens no longer carry them.
        let (earlier, wanted) = self
            .kept
            .load()
            .await
            .filter(|t| t.issuer == discovery.issuer())
            .map(|t| (t.scopes, t.step_up_scopes))
            .unwrap_or_default();
        let challenged = challenge
            .as_ref()
            .map(BearerChallenge::scopes)
            .unwrap_or_default();
        let first = earlier.is_empty();
        self.grant(&discovery, first, &earlier, &challenged, &wanted)
            .await?;
        flow.refreshed = None;
        Ok(())
    }

    pub fn max_attempts(&self) -> u32 {
        self.config.max_attempts
    }

    /// The access token to send now, refreshed first if it is about to expire. `None` before
    /// the first authorization.
    pub async fn access_token(&self) -> Option<AccessToken> {
        let present = |tokens: Tokens| AccessToken {
            token: tokens.access_token,
            dpop: tokens.dpop,
        };
        let tokens = self.kept.load().await?;
        if !tokens.due_for_refresh(REFRESH_MARGIN) || tokens.refresh_token.is_none() {
            return Some(present(tokens));
        }
        let mut flow = self.flow.lock().await;
        let tokens = self.kept.load().await?;
        if !tokens.due_for_refresh(REFRESH_MARGIN) {
            return Some(present(tokens));
        }
        if let Err(e) = self.refresh(&mut flow, &tokens).await {
            tracing::info!("refreshing the token for {} failed: {e}", self.server);
            return Some(present(tokens));
        }
        self.kept.load().await.map(present)
    }

    /// The headers that present `token` on a `method` request to `url`: `Authorization: Bearer`,
    /// or for a DPoP-bound token `Authorization: DPoP` and a fresh `DPoP` proof.
    pub fn authorization_headers(
        &self,
        token: &AccessToken,
        method: &str,
        url: &Url,
    ) -> Vec<(&'static str, String)> {
        if !token.dpop {
            return vec![("authorization", format!("Bearer {}", token.token.expose()))];
        }
        match self.dpop.proof(method, url, Some(&token.token)) {
            Ok(proof) => vec![
                ("authorization", format!("DPoP {}", token.token.expose())),
                ("dpop", proof),
            ],
            Err(e) => {
                tracing::warn!("no DPoP proof for {url}: {e}");
                vec![("authorization", format!("DPoP {}", token.token.expose()))]
            }
        }
    }

    /// The token endpoint client for `server`: with DPoP proofs where it offers DPoP.
    fn oauth_http(&self, server: &AuthorizationServerMetadata) -> OAuthHttp {
        OAuthHttp {
            client: self.http.clone(),
            dpop: server.supports_dpop().then(|| self.dpop.clone()),
        }
    }

    /// Handles a 401, or a 403 whose challenge is `insufficient_scope`, to a request that
    /// carried `sent`. `Ok` means new tokens (or a server nonce) are in place, possibly put
    /// there by another request meanwhile: send the request again.
    pub async fn challenged(
        &self,
        status: u16,
        www_authenticate: &[String],
        dpop_nonce: Option<&str>,
        sent: Option<&Sensitive<String>>,
    ) -> Result<(), AuthError> {
        let challenge = BearerChallenge::from_headers(www_authenticate.iter().map(String::as_str));
        if let Some(nonce) = dpop_nonce
            && challenge
                .as_ref()
                .is_some_and(|c| c.error.as_deref() == Some("use_dpop_nonce"))
        {
            // RFC 9449 §9: the server wants its nonce in the proof; the token is fine.
            self.dpop.remember_nonce(&self.server, nonce);
            return Ok(());
        }
        let mut flow = self.flow.lock().await;
        // Read the store again: another process (the app, the CLI) may have new tokens.
        self.kept.reread();
        let current = self.kept.load().await;
        if current.as_ref().map(|t| &t.access_token) != sent {
            // Another request already got new tokens while this one waited.
            return Ok(());
        }
        let discovery = discovery::discover(&self.http, &self.server, challenge.as_ref()).await?;
        let challenged = challenge
            .as_ref()
            .map(BearerChallenge::scopes)
            .unwrap_or_default();
        let same_issuer = current.as_ref().filter(|t| t.issuer == discovery.issuer());
        if current.is_some() && same_issuer.is_none() {
            // The server moved to another authorization server: its tokens are of no use.
            tracing::info!(
                "{} now uses authorization server {}; authorizing there",
                self.server,
                discovery.issuer()
            );
            self.kept.forget().await?;
        }
        let step_up = status == 403;
        if !step_up
            && let Some(tokens) = same_issuer
            && tokens.refresh_token.is_some()
            && flow.refreshed.as_ref() != sent
        {
            match self.refresh(&mut flow, tokens).await {
                Ok(_) => return Ok(()),
                Err(e) => tracing::info!("refreshing the token for {} failed: {e}", self.server),
            }
        }
        let earlier = same_issuer.map(|t| t.scopes.clone()).unwrap_or_default();
        if step_up && self.prompt.is_none() && self.config.machine_grant.is_none() {
            return Err(self.remember_step_up(same_issuer, &challenged).await);
        }
        let wanted = same_issuer
            .map(|t| t.step_up_scopes.clone())
            .unwrap_or_default();
        let first = earlier.is_empty() && !step_up;
        self.grant(&discovery, first, &earlier, &challenged, &wanted)
            .await?;
        flow.refreshed = None;
        Ok(())
    }

    /// Gets new tokens at the discovered server, by the machine grant or the code flow. The
    /// scopes: for a `first` authorization the challenged ones, else the PRM's
    /// `scopes_supported` (2025-11-25 basic/authorization, "Scope Selection Strategy"); after
    /// that the union of the `earlier` and the challenged ones (a step-up); in both cases with
    /// those a refused step-up left `wanted`.
    async fn grant(
        &self,
        discovery: &Discovery,
        first: bool,
        earlier: &[String],
        challenged: &[String],
        wanted: &[String],
    ) -> Result<(), AuthError> {
        let scopes = if first {
            let supported = discovery
                .protected_resource
                .as_ref()
                .and_then(|p| p.scopes_supported.as_deref());
            scope::initial(challenged, supported)
        } else {
            scope::union(earlier, challenged)
        };
        let scopes = scope::union(&scopes, wanted);
        match &self.config.machine_grant {
            Some(grant) => self.obtain(discovery, grant, scopes).await,
            None => self.authorize(discovery, scopes).await,
        }
    }

    /// A 403 `insufficient_scope` that nobody can answer now (no prompt, no machine grant):
    /// keeps the challenged scopes with the tokens for the next [`Authorizer::sign_in`], and
    /// says which scopes a sign-in has to grant. The transport fails the request with status
    /// 401, which the host shows as needing sign-in.
    async fn remember_step_up(&self, kept: Option<&Tokens>, challenged: &[String]) -> AuthError {
        let Some(tokens) = kept else {
            return AuthError::NeedsUser;
        };
        let missing: Vec<String> = challenged
            .iter()
            .filter(|s| !tokens.scopes.contains(s))
            .cloned()
            .collect();
        // All of them were asked for already (the authorization server granted less than was
        // requested): a sign-in asks for them again, so name them all.
        let missing = if missing.is_empty() {
            challenged.to_vec()
        } else {
            missing
        };
        if missing.is_empty() {
            return AuthError::NeedsUser;
        }
        let mut wanting = tokens.clone();
        wanting.step_up_scopes = scope::union(&tokens.step_up_scopes, &missing);
        if wanting != *tokens
            && let Err(e) = self.kept.keep(wanting).await
        {
            tracing::warn!("keeping the scopes {} asked for failed: {e}", self.server);
        }
        AuthError::NeedsUserForScopes {
            scopes: missing.join(" "),
        }
    }

    /// Refreshes `tokens` at their issuer; the caller holds the flow lock.
    async fn refresh(
        &self,
        flow: &mut Flow,
        tokens: &Tokens,
    ) -> Result<Sensitive<String>, AuthError> {
        let refresh_token = tokens
            .refresh_token
            .as_ref()
            .ok_or_else(|| AuthError::Token("no refresh token".into()))?;
        let discovery = discovery::discover(&self.http, &self.server, None).await?;
        if discovery.issuer() != tokens.issuer {
            return Err(AuthError::Token(
                "the server now uses another authorization server".into(),
            ));
        }
        let client = registration::client_for(
            &self.http,
            &self.config,
            self.kept.store(),
            &discovery.authorization_server,
            self.redirect_uri(),
        )
        .await?;
        let grant = code_flow::refresh(
            &self.oauth_http(&discovery.authorization_server),
            &client,
            &discovery.authorization_server,
            self.redirect_uri(),
            refresh_token,
            &tokens.resource,
        )
        .await?;
        let (issued_at, expires_at) = Tokens::lifetime_from_now(grant.expires_in);
        let fresh = Tokens {
            access_token: grant.access_token,
            // RFC 6749 §6: without a new refresh token the old one stays valid.
            refresh_token: grant.refresh_token.or_else(|| tokens.refresh_token.clone()),
            expires_at,
            issued_at,
            scopes: grant.scopes.unwrap_or_else(|| tokens.scopes.clone()),
            issuer: tokens.issuer.clone(),
            resource: tokens.resource.clone(),
            dpop: grant.dpop,
            // A refresh grants no new scopes: what a step-up still needs stays wanted.
            step_up_scopes: tokens.step_up_scopes.clone(),
        };
        let access = fresh.access_token.clone();
        self.kept.keep(fresh).await?;
        flow.refreshed = Some(access.clone());
        Ok(access)
    }

    fn redirect_uri(&self) -> &str {
        self.prompt
            .as_deref()
            .map(AuthorizationPrompt::redirect_uri)
            .unwrap_or("http://127.0.0.1/callback")
    }

    /// Tokens by a grant without a person.
    async fn obtain(
        &self,
        discovery: &Discovery,
        grant: &MachineGrant,
        scopes: Vec<String>,
    ) -> Result<(), AuthError> {
        let server = &discovery.authorization_server;
        let client = registration::client_for(
            &self.http,
            &self.config,
            self.kept.store(),
            server,
            self.redirect_uri(),
        )
        .await?;
        let grant = machine_grant::obtain(
            &self.oauth_http(server),
            grant,
            &client,
            server,
            &scopes,
            &discovery.resource,
        )
        .await?;
        self.save(discovery, grant, scopes).await
    }

    async fn save(
        &self,
        discovery: &Discovery,
        grant: code_flow::Grant,
        scopes: Vec<String>,
    ) -> Result<(), AuthError> {
        let (issued_at, expires_at) = Tokens::lifetime_from_now(grant.expires_in);
        let tokens = Tokens {
            access_token: grant.access_token,
            refresh_token: grant.refresh_token,
            expires_at,
            issued_at,
            // What was asked for: a step-up adds to these.
            scopes,
            issuer: discovery.authorization_server.issuer.clone(),
            resource: discovery.resource.clone(),
            dpop: grant.dpop,
            // Requested with `scopes`: nothing is wanted beyond them any more.
            step_up_scopes: Vec::new(),
        };
        self.kept.keep(tokens).await
    }

    /// The full authorization code flow with `scopes` at the discovered server.
    async fn authorize(&self, discovery: &Discovery, scopes: Vec<String>) -> Result<(), AuthError> {
        let prompt = self.prompt.as_deref().ok_or(AuthError::NeedsUser)?;
        let server = &discovery.authorization_server;
        if !server.supports_s256() {
            // 2025-11-25 basic/authorization, "Authorization Code Protection".
            return Err(AuthError::Discovery(format!(
                "authorization server {} does not advertise PKCE S256 support \
                 (code_challenge_methods_supported); refusing to authorize there",
                server.issuer
            )));
        }
        let redirect_uri = prompt.redirect_uri();
        let client = registration::client_for(
            &self.http,
            &self.config,
            self.kept.store(),
            server,
            redirect_uri,
        )
        .await?;
        let scopes = scope::with_offline_access(scopes, server.scopes_supported.as_deref());
        let pending =
            code_flow::start(&client, server, redirect_uri, &scopes, &discovery.resource)?;
        let query = prompt.authorize(&pending.url).await?;
        let response = AuthorizationResponse::from_query(&query);
        let code = response.code(pending.state(), server, "the authorization server")?;
        let grant = code_flow::exchange(
            &self.oauth_http(server),
            &client,
            server,
            redirect_uri,
            pending,
            code,
            &discovery.resource,
        )
        .await?;
        self.save(discovery, grant, scopes).await
    }
}
