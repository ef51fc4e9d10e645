//! OAuth over Streamable HTTP against tests/fixtures/faults/oauth_server.py, a real HTTP server
//! that requires bearer tokens and runs its own authorization server: the transport authorizes
//! on the first 401 and sends the token on every request after it, answers a 401 to a known
//! token with one refresh (no new sign-in), refreshes a token about to expire before sending it,
//! and without an authorizer (or without anyone to sign in) fails with HTTP status 401 and a
//! message saying what to do. The legacy HTTP+SSE transport authorizes its event stream and
//! sends the token with every POST. Kept tokens requested for another resource are never sent.
//! Nothing is registered or authorized at an authorization server without PKCE S256; a refused
//! registration says why; a redirect without this request's `state` is discarded unused. A 403
//! `insufficient_scope` with nobody to sign in keeps the scopes it names for the next sign-in.

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use crate::support::HttpServer;
use gatehouse_mcp::auth::{AuthConfig, Authorizer, HeadlessPrompt, MemoryTokenStore, TokenStore};
use gatehouse_mcp::{CallOptions, HttpConfig, HttpMode};
use serde_json::{Value, json};

const REDIRECT: &str = "http://127.0.0.1:1/callback";

fn authorized(server: &HttpServer, prompt: bool) -> HttpConfig {
    authorized_at(server, "/mcp", prompt)
}

fn authorized_at(server: &HttpServer, path: &str, prompt: bool) -> HttpConfig {
    let mut config = server.config(path);
    let prompt: Option<Arc<dyn gatehouse_mcp::auth::AuthorizationPrompt>> = if prompt {
        Some(Arc::new(HeadlessPrompt::new(REDIRECT).expect("a prompt")))
    } else {
        None
    };
    let authorizer = Authorizer::new(
        config.url.clone(),
        AuthConfig::default(),
        Arc::new(MemoryTokenStore::default()),
        prompt,
    )
    .expect("an authorizer");
    config.authorizer = Some(Arc::new(authorizer));
    config
}

async fn server_log(server: &HttpServer) -> Vec<Value> {
    let url = format!("http://127.0.0.1:{}/log", server.port);
    let log: Value = reqwest::get(url)
        .await
        .expect("the log")
        .json()
        .await
        .expect("JSON");
    log.as_array().cloned().unwrap_or_default()
}

fn of_kind<'a>(log: &'a [Value], kind: &str) -> Vec<&'a Value> {
    log.iter().filter(|e| e["kind"] == kind).collect()
}

async fn list_and_call(config: &HttpConfig) {
    let client = support::connect_http(config, HttpMode::StreamableHttp)
        .await
        .expect("connects");
    client.list_tools().await.expect("tools/list");
    let result = client
        .call_tool("echo", Some(json!({})), CallOptions::default())
        .await
        .expect("tools/call");
    assert_eq!(support::text(&result), "echoed");
    client.close().await.expect("closes");
}

#[tokio::test]
async fn the_first_401_is_authorized_and_every_later_request_carries_the_token() {
    let server = HttpServer::oauth("plain").await;
    let config = authorized(&server, true);
    list_and_call(&config).await;

    let log = server_log(&server).await;
    let mcp = of_kind(&log, "mcp");
    assert_eq!(mcp[0]["status"], 401, "{log:#?}");
    assert_eq!(mcp[0]["auth"], Value::Null);
    assert!(
        mcp[1..]
            .iter()
            .all(|e| e["auth"] == "Bearer at-1" && e["status"] == 200),
        "{log:#?}"
    );
    assert_eq!(of_kind(&log, "register").len(), 1);
    let register = &of_kind(&log, "register")[0]["body"];
    assert_eq!(register["application_type"], "native");
    assert_eq!(register["redirect_uris"], json!([REDIRECT]));
    // The token travels in the header only, never in the URL.
    assert!(mcp.iter().all(|e| e["query"] == ""), "{log:#?}");
    let authorize = of_kind(&log, "authorize");
    assert_eq!(authorize.len(), 1);
    let query = &authorize[0]["query"];
    let resource = format!("http://127.0.0.1:{}/mcp", server.port);
    assert_eq!(query["resource"], resource.as_str());
    assert_eq!(query["code_challenge_method"], "S256");
    let tokens = of_kind(&log, "token");
    assert_eq!(tokens.len(), 1);
    assert_eq!(tokens[0]["grant_type"], "authorization_code");
    assert_eq!(tokens[0]["resource"], resource.as_str());
    // The transport's configuration names the authorizer, never a token.
    assert!(!format!("{config:?}").contains("at-1"));
}

#[tokio::test]
async fn a_401_to_a_known_token_is_answered_with_one_refresh_not_a_new_sign_in() {
    let server = HttpServer::oauth("revoke-after-list").await;
    list_and_call(&authorized(&server, true)).await;

    let log = server_log(&server).await;
    assert_eq!(of_kind(&log, "authorize").len(), 1, "{log:#?}");
    let grants: Vec<_> = of_kind(&log, "token")
        .iter()
        .map(|e| e["grant_type"].clone())
        .collect();
    assert_eq!(
        grants,
        [json!("authorization_code"), json!("refresh_token")]
    );
    let call: Vec<_> = of_kind(&log, "mcp")
        .into_iter()
        .filter(|e| e["method"] == "tools/call")
        .collect();
    assert_eq!(call.len(), 2, "{log:#?}");
    assert_eq!(call[0]["status"], 401);
    assert_eq!(call[1]["auth"], "Bearer at-2");
    assert_eq!(call[1]["status"], 200);
}

#[tokio::test]
async fn a_token_about_to_expire_is_refreshed_before_it_is_sent() {
    let server = HttpServer::oauth("short-lived").await;
    let store = Arc::new(MemoryTokenStore::default());
    let mut config = server.config("/mcp");
    config.authorizer = Some(sharing(&config, &store, true));
    let signing_in = support::connect_http(&config, HttpMode::StreamableHttp)
        .await
        .expect("connects");
    signing_in.list_tools().await.expect("tools/list");
    signing_in.close().await.expect("closes");
    // The token lives 4 s and is due at half its life: it is aged 2.5 s in the store (the
    // server's tokens do not expire on its clock), rather than waited for.
    let key = config.url.to_string();
    let mut tokens = store
        .load_tokens(&key)
        .await
        .expect("the store")
        .expect("the signed-in tokens");
    let age = |at: Option<u64>| at.map(|at| at.saturating_sub(3));
    let lifetime = tokens.expires_at.zip(tokens.issued_at).map(|(e, i)| e - i);
    assert_eq!(lifetime, Some(4), "{tokens:?}");
    tokens.issued_at = age(tokens.issued_at);
    tokens.expires_at = age(tokens.expires_at);
    store.save_tokens(&key, tokens).await.expect("the store");
    assert!(
        store
            .load_tokens(&key)
            .await
            .expect("the store")
            .expect("the aged tokens")
            .due_for_refresh(Duration::from_secs(60)),
        "the aged token is due"
    );
    // A connection on the aged tokens.
    config.authorizer = Some(sharing(&config, &store, true));
    let client = support::connect_http(&config, HttpMode::StreamableHttp)
        .await
        .expect("connects");
    client
        .call_tool("echo", Some(json!({})), CallOptions::default())
        .await
        .expect("tools/call");
    client.close().await.expect("closes");

    let log = server_log(&server).await;
    let call: Vec<_> = of_kind(&log, "mcp")
        .into_iter()
        .filter(|e| e["method"] == "tools/call")
        .collect();
    assert_eq!(call.len(), 1, "no 401 first: {log:#?}");
    assert_eq!(call[0]["auth"], "Bearer at-2");
    assert_eq!(of_kind(&log, "authorize").len(), 1);
}

#[tokio::test]
async fn without_an_authorizer_a_401_fails_as_http_401_saying_what_to_do() {
    let server = HttpServer::oauth("plain").await;
    let error = support::connect_http(&server.config("/mcp"), HttpMode::Auto)
        .await
        .expect_err("the server requires a token");
    assert_eq!(error.http_status(), Some(401), "{error}");
    assert!(
        error.to_string().contains("requires authorization"),
        "{error}"
    );
    assert!(of_kind(&server_log(&server).await, "authorize").is_empty());
}

#[tokio::test]
async fn with_no_one_to_sign_in_authorization_fails_as_http_401() {
    let server = HttpServer::oauth("plain").await;
    let error = support::connect_http(&authorized(&server, false), HttpMode::StreamableHttp)
        .await
        .expect_err("nobody can sign in");
    assert_eq!(error.http_status(), Some(401), "{error}");
    assert!(error.to_string().contains("cannot ask anyone"), "{error}");
    let log = server_log(&server).await;
    assert!(of_kind(&log, "authorize").is_empty(), "{log:#?}");
    assert!(of_kind(&log, "register").is_empty(), "{log:#?}");
}

/// A prompt whose person closes the browser: no redirect comes back.
struct ClosedBrowser(std::sync::atomic::AtomicUsize);

impl gatehouse_mcp::auth::AuthorizationPrompt for ClosedBrowser {
    fn redirect_uri(&self) -> &str {
        REDIRECT
    }

    fn authorize<'a>(
        &'a self,
        _url: &'a url::Url,
    ) -> gatehouse_mcp::transport::BoxFuture<'a, Result<String, gatehouse_mcp::auth::AuthError>>
    {
        self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Box::pin(async {
            Err(gatehouse_mcp::auth::AuthError::Authorization(
                "the browser was closed".into(),
            ))
        })
    }
}

#[tokio::test]
async fn a_refused_sign_in_is_not_asked_for_again_by_the_handshake_after_the_probe() {
    let server = HttpServer::oauth("plain").await;
    let prompt = Arc::new(ClosedBrowser(Default::default()));
    let mut config = server.config("/mcp");
    config.authorizer = Some(Arc::new(
        Authorizer::new(
            config.url.clone(),
            AuthConfig::default(),
            Arc::new(MemoryTokenStore::default()),
            Some(prompt.clone()),
        )
        .expect("an authorizer"),
    ));
    // Auto: the era probe (server/discover) meets the 401 first.
    let error = support::connect_http(&config, HttpMode::Auto)
        .await
        .expect_err("the sign-in failed");
    assert_eq!(error.http_status(), Some(401), "{error}");
    assert!(error.to_string().contains("browser was closed"), "{error}");
    assert_eq!(prompt.0.load(std::sync::atomic::Ordering::SeqCst), 1);
}

#[tokio::test]
async fn http_sse_authorizes_its_event_stream_and_sends_the_token_with_every_post() {
    let server = HttpServer::oauth("sse").await;
    let config = authorized_at(&server, "/sse", true);
    let client = support::connect_http(&config, HttpMode::Sse)
        .await
        .expect("connects");
    client.list_tools().await.expect("tools/list");
    client.close().await.expect("closes");

    let log = server_log(&server).await;
    let mcp = of_kind(&log, "mcp");
    assert_eq!(
        (&mcp[0]["http"], &mcp[0]["status"]),
        (&json!("GET"), &json!(401))
    );
    assert!(
        mcp[1..]
            .iter()
            .all(|e| e["auth"] == "Bearer at-1" && e["status"] == 200),
        "{log:#?}"
    );
    assert!(mcp.iter().any(|e| e["method"] == "tools/list"), "{log:#?}");
    let authorize = of_kind(&log, "authorize");
    assert_eq!(authorize.len(), 1);
    let resource = format!("http://127.0.0.1:{}/sse", server.port);
    assert_eq!(authorize[0]["query"]["resource"], resource.as_str());
}

/// The in-memory store, counting how often tokens are read and written: a keyring store costs a
/// round trip for each.
#[derive(Default)]
struct CountingStore {
    inner: MemoryTokenStore,
    loads: std::sync::atomic::AtomicUsize,
    saves: std::sync::atomic::AtomicUsize,
}

type StoreFuture<'a, T> =
    gatehouse_mcp::transport::BoxFuture<'a, Result<T, gatehouse_mcp::auth::AuthError>>;

impl gatehouse_mcp::auth::TokenStore for CountingStore {
    fn load_tokens<'a>(
        &'a self,
        server: &'a str,
    ) -> StoreFuture<'a, Option<gatehouse_mcp::auth::Tokens>> {
        self.loads.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        self.inner.load_tokens(server)
    }
    fn save_tokens<'a>(
        &'a self,
        server: &'a str,
        tokens: gatehouse_mcp::auth::Tokens,
    ) -> StoreFuture<'a, ()> {
        self.saves.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        self.inner.save_tokens(server, tokens)
    }
    fn remove_tokens<'a>(&'a self, server: &'a str) -> StoreFuture<'a, ()> {
        self.inner.remove_tokens(server)
    }
    fn load_client<'a>(
        &'a self,
        issuer: &'a str,
    ) -> StoreFuture<'a, Option<gatehouse_mcp::auth::ClientCredentials>> {
        self.inner.load_client(issuer)
    }
    fn save_client<'a>(
        &'a self,
        client: gatehouse_mcp::auth::ClientCredentials,
    ) -> StoreFuture<'a, ()> {
        self.inner.save_client(client)
    }
    fn remove_client<'a>(&'a self, issuer: &'a str) -> StoreFuture<'a, ()> {
        self.inner.remove_client(issuer)
    }
}

#[tokio::test]
async fn the_store_is_read_on_the_first_request_and_on_a_401_not_for_every_request() {
    use gatehouse_mcp::auth::TokenStore as _;
    let server = HttpServer::oauth("plain").await;
    let store = Arc::new(CountingStore::default());
    let mut config = server.config("/mcp");
    let authorizer = Authorizer::new(
        config.url.clone(),
        AuthConfig::default(),
        store.clone(),
        Some(Arc::new(HeadlessPrompt::new(REDIRECT).expect("a prompt"))),
    )
    .expect("an authorizer");
    config.authorizer = Some(Arc::new(authorizer));
    list_and_call(&config).await;

    let requests = of_kind(&server_log(&server).await, "mcp").len();
    assert!(requests >= 4, "{requests} requests");
    // Once for the first request, once more on its 401 (another process may have signed in).
    assert_eq!(store.loads.load(std::sync::atomic::Ordering::SeqCst), 2);
    assert_eq!(store.saves.load(std::sync::atomic::Ordering::SeqCst), 1);
    let kept = store
        .load_tokens(config.url.as_str())
        .await
        .expect("the store answers")
        .expect("the tokens were stored");
    assert_eq!(kept.access_token.expose(), "at-1");
}

#[tokio::test]
async fn kept_tokens_for_another_resource_are_never_sent() {
    use gatehouse_mcp::auth::{TokenStore as _, Tokens};
    // The host keys tokens by the server's id: after the server's URL was edited, the kept
    // tokens were issued for the old URL and another server's authorization server (2025-11-25
    // basic/authorization, "Token Handling": never send tokens other than ones issued by this
    // server's authorization server).
    let server = HttpServer::oauth("plain").await;
    let store = Arc::new(MemoryTokenStore::default());
    store
        .save_tokens(
            "server-1",
            Tokens {
                access_token: gatehouse_mcp::Sensitive::new("elsewhere-token".to_owned()),
                refresh_token: None,
                expires_at: None,
                issued_at: None,
                scopes: Vec::new(),
                issuer: "https://as.elsewhere.example".to_owned(),
                resource: "https://mcp.elsewhere.example/mcp".to_owned(),
                dpop: false,
                step_up_scopes: Vec::new(),
            },
        )
        .await
        .expect("stored");
    let mut config = server.config("/mcp");
    let authorizer = Authorizer::new(
        config.url.clone(),
        AuthConfig::default(),
        store,
        Some(Arc::new(HeadlessPrompt::new(REDIRECT).expect("a prompt"))),
    )
    .expect("an authorizer")
    .with_store_key("server-1");
    config.authorizer = Some(Arc::new(authorizer));
    list_and_call(&config).await;

    let log = server_log(&server).await;
    let mcp = of_kind(&log, "mcp");
    assert_eq!(mcp[0]["auth"], Value::Null, "{log:#?}");
    assert!(
        mcp.iter().all(|e| e["auth"] != "Bearer elsewhere-token"),
        "{log:#?}"
    );
    assert_eq!(of_kind(&log, "authorize").len(), 1, "{log:#?}");
}

#[tokio::test]
async fn an_authorization_server_without_pkce_is_refused_before_anything_is_sent_to_it() {
    let server = HttpServer::oauth("no-pkce").await;
    let error = support::connect_http(&authorized(&server, true), HttpMode::StreamableHttp)
        .await
        .expect_err("no PKCE, no authorization");
    assert_eq!(error.http_status(), Some(401), "{error}");
    assert!(error.to_string().contains("PKCE"), "{error}");
    let log = server_log(&server).await;
    for kind in ["register", "authorize", "token"] {
        assert!(of_kind(&log, kind).is_empty(), "{kind}: {log:#?}");
    }
}

#[tokio::test]
async fn a_refused_registration_fails_with_the_servers_reason() {
    let server = HttpServer::oauth("register-refused").await;
    let error = support::connect_http(&authorized(&server, true), HttpMode::StreamableHttp)
        .await
        .expect_err("registration refused");
    assert_eq!(error.http_status(), Some(401), "{error}");
    let text = error.to_string();
    assert!(text.contains("invalid_redirect_uri"), "{text}");
    assert!(
        text.contains("loopback redirect URIs are not allowed here"),
        "{text}"
    );
    let log = server_log(&server).await;
    assert_eq!(of_kind(&log, "register").len(), 1, "{log:#?}");
    assert!(of_kind(&log, "authorize").is_empty(), "{log:#?}");
}

/// The headless prompt, with the redirect's `state` replaced (`Some`) or removed (`None`), as
/// an attacker's forged redirect would have it.
struct ForgedState {
    inner: HeadlessPrompt,
    state: Option<&'static str>,
}

impl gatehouse_mcp::auth::AuthorizationPrompt for ForgedState {
    fn redirect_uri(&self) -> &str {
        REDIRECT
    }

    fn authorize<'a>(
        &'a self,
        url: &'a url::Url,
    ) -> gatehouse_mcp::transport::BoxFuture<'a, Result<String, gatehouse_mcp::auth::AuthError>>
    {
        Box::pin(async move {
            let query = self.inner.authorize(url).await?;
            let mut forged = url::form_urlencoded::Serializer::new(String::new());
            for (name, value) in url::form_urlencoded::parse(query.as_bytes()) {
                if name != "state" {
                    forged.append_pair(&name, &value);
                }
            }
            if let Some(state) = self.state {
                forged.append_pair("state", state);
            }
            Ok(forged.finish())
        })
    }
}

#[tokio::test]
async fn a_redirect_without_this_requests_state_is_discarded() {
    use gatehouse_mcp::auth::AuthorizationPrompt as _;
    for state in [Some("forged"), None] {
        let server = HttpServer::oauth("plain").await;
        let mut config = server.config("/mcp");
        let prompt = ForgedState {
            inner: HeadlessPrompt::new(REDIRECT).expect("a prompt"),
            state,
        };
        assert_eq!(prompt.redirect_uri(), REDIRECT);
        config.authorizer = Some(Arc::new(
            Authorizer::new(
                config.url.clone(),
                AuthConfig::default(),
                Arc::new(MemoryTokenStore::default()),
                Some(Arc::new(prompt)),
            )
            .expect("an authorizer"),
        ));
        let error = support::connect_http(&config, HttpMode::StreamableHttp)
            .await
            .expect_err("the forged redirect is not used");
        assert!(error.to_string().contains("state"), "{state:?}: {error}");
        let log = server_log(&server).await;
        assert_eq!(of_kind(&log, "authorize").len(), 1, "{log:#?}");
        assert!(of_kind(&log, "token").is_empty(), "{state:?}: {log:#?}");
    }
}

/// An authorizer on `store` for the server at `config`'s URL, with a browser or without.
fn sharing(config: &HttpConfig, store: &Arc<MemoryTokenStore>, prompt: bool) -> Arc<Authorizer> {
    let prompt: Option<Arc<dyn gatehouse_mcp::auth::AuthorizationPrompt>> = if prompt {
        Some(Arc::new(HeadlessPrompt::new(REDIRECT).expect("a prompt")))
    } else {
        None
    };
    Arc::new(
        Authorizer::new(
            config.url.clone(),
            AuthConfig::default(),
            store.clone(),
            prompt,
        )
        .expect("an authorizer"),
    )
}

fn authorize_scopes(log: &[Value]) -> Vec<String> {
    of_kind(log, "authorize")
        .iter()
        .map(|e| e["query"]["scope"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[tokio::test]
async fn a_403_insufficient_scope_with_no_one_to_ask_is_kept_for_the_next_sign_in() {
    use gatehouse_mcp::auth::TokenStore as _;
    // 2025-11-25 basic/authorization, "Scope Challenge Handling"; 2026-07-28 "Step-Up
    // Authorization Flow": the re-authorization asks for the kept scopes and the challenged ones.
    let server = HttpServer::oauth("step-up").await;
    let store = Arc::new(MemoryTokenStore::default());
    let mut config = server.config("/mcp");
    let key = config.url.to_string();
    // A person signed in once (the 401 asked for mcp:read).
    sharing(&config, &store, true)
        .sign_in()
        .await
        .expect("signed in");
    // A background connection: no one to ask.
    config.authorizer = Some(sharing(&config, &store, false));
    let client = support::connect_http(&config, HttpMode::StreamableHttp)
        .await
        .expect("connects with the kept token");
    client.list_tools().await.expect("tools/list");
    let error = client
        .call_tool("write", Some(json!({})), CallOptions::default())
        .await
        .expect_err("the token lacks mcp:write");
    assert_eq!(error.http_status(), Some(401), "{error}");
    assert!(error.to_string().contains("mcp:write"), "{error}");
    let kept = store
        .load_tokens(&key)
        .await
        .expect("the store")
        .expect("tokens");
    assert_eq!(kept.scopes, ["mcp:read"]);
    assert_eq!(kept.step_up_scopes, ["mcp:write"]);
    assert_eq!(authorize_scopes(&server_log(&server).await), ["mcp:read"]);

    // The person signs in: the sign-in asks for what was kept and what the 403 named.
    sharing(&config, &store, true)
        .sign_in()
        .await
        .expect("signed in again");
    let log = server_log(&server).await;
    assert_eq!(
        authorize_scopes(&log),
        ["mcp:read", "mcp:read mcp:write"],
        "{log:#?}"
    );
    let kept = store
        .load_tokens(&key)
        .await
        .expect("the store")
        .expect("tokens");
    assert_eq!(kept.scopes, ["mcp:read", "mcp:write"]);
    assert!(kept.step_up_scopes.is_empty(), "{kept:?}");

    // The same background connection now gets through with the new token.
    let result = client
        .call_tool("write", Some(json!({})), CallOptions::default())
        .await
        .expect("tools/call with mcp:write");
    assert_eq!(support::text(&result), "written");
    client.close().await.expect("closes");
    let log = server_log(&server).await;
    let calls: Vec<_> = of_kind(&log, "mcp")
        .into_iter()
        .filter(|e| e["method"] == "tools/call")
        .map(|e| e["status"].clone())
        .collect();
    assert_eq!(calls.last(), Some(&json!(200)), "{log:#?}");
    assert_eq!(of_kind(&log, "authorize").len(), 2, "{log:#?}");
}
