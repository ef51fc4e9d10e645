//! The loopback redirect of a browser sign-in (RFC 8252), against the authorization endpoint of
//! tests/fixtures/faults/oauth_server.py with the test playing the browser: the redirect URI is
//! `http://127.0.0.1:PORT/callback`, the redirect's query comes back and the browser sees the
//! "Signed in" page; stray requests (a favicon, a redirect with another `state`) get a 404 or a
//! 400 without ending the wait; an `error=` redirect shows an error page; nothing listens
//! afterwards; a wait nobody finishes times out with a message saying so; and only web URLs are
//! opened.

use std::time::Duration;

use crate::support::oauth::{OAuthServer, browser_prompt};
use gatehouse_host::LoopbackPrompt;
use gatehouse_mcp::auth::AuthorizationPrompt;
use url::Url;

fn authorization_url(fixture: &OAuthServer, redirect: &str, state: &str) -> Url {
    let mut url = Url::parse(&format!("{}/authorize", fixture.issuer())).expect("url");
    url.query_pairs_mut()
        .append_pair("redirect_uri", redirect)
        .append_pair("state", state)
        .append_pair("response_type", "code");
    url
}

/// The favicon a browser asks for on the origin of `url`, the loopback redirect (the
/// authorization URL's `redirect_uri`).
fn url_of_favicon(url: &str) -> String {
    let url = Url::parse(url).expect("url");
    let redirect = url
        .query_pairs()
        .find(|(k, _)| k == "redirect_uri")
        .map(|(_, v)| v.into_owned())
        .expect("a redirect_uri");
    format!("http://127.0.0.1:{}/favicon.ico", port_of(&redirect))
}

fn port_of(redirect: &str) -> u16 {
    Url::parse(redirect).expect("url").port().expect("a port")
}

#[tokio::test]
async fn the_redirect_comes_back_and_stray_requests_do_not_end_the_wait() {
    let fixture = OAuthServer::start("plain").await;
    // The browser asks for a favicon on the loopback port first, then does the sign-in.
    let (visits, mut seen) = tokio::sync::mpsc::channel(4);
    let open = move |url: &str| -> Result<(), String> {
        let url = url.to_owned();
        let visits = visits.clone();
        tokio::spawn(async move {
            let favicon = reqwest::get(url_of_favicon(&url)).await.map(|r| r.status());
            let foreign = reqwest::get(url_of_favicon(&url).replace(
                "/favicon.ico",
                "/callback?code=stolen&state=another-sign-in",
            ))
            .await
            .map(|r| r.status().as_u16());
            let page = match reqwest::get(&url).await {
                Ok(r) => r.text().await.unwrap_or_default(),
                Err(e) => e.to_string(),
            };
            let _ = visits
                .send((favicon.map(|s| s.as_u16()), foreign.ok(), page))
                .await;
        });
        Ok(())
    };
    let prompt = LoopbackPrompt::bind(Box::new(open), Duration::from_secs(30))
        .await
        .expect("binds");
    let redirect = prompt.redirect_uri().to_owned();
    let port = port_of(&redirect);
    assert_eq!(redirect, format!("http://127.0.0.1:{port}/callback"));

    let url = authorization_url(&fixture, &redirect, "st-1");
    let query = prompt
        .authorize(&url)
        .await
        .expect("the redirect came back");
    let pairs: Vec<(String, String)> = url::form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect();
    assert!(pairs.contains(&("code".into(), "code-1".into())), "{query}");
    assert!(pairs.contains(&("state".into(), "st-1".into())), "{query}");
    let (favicon, foreign, page) = seen.recv().await.expect("the browser was opened");
    assert_eq!(favicon.ok(), Some(404), "a stray request gets a 404");
    assert_eq!(foreign, Some(400), "another sign-in's redirect is refused");
    assert!(
        page.contains("Signed in to Gatehouse. You can close this tab."),
        "{page}"
    );

    assert!(
        tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_err(),
        "nothing listens after the sign-in"
    );
    assert!(
        prompt.authorize(&url).await.is_err(),
        "a prompt serves one sign-in"
    );
}

#[tokio::test]
async fn an_error_redirect_shows_an_error_page_and_returns_the_error_without_displaying_it() {
    let (prompt, mut visits) = browser_prompt(Duration::from_secs(30)).await;
    let port = port_of(prompt.redirect_uri());
    // The "authorization server" is the callback itself, refusing: as if the person declined.
    let url = Url::parse(&format!(
        "http://127.0.0.1:{port}/callback?error=access_denied&state=s"
    ))
    .expect("url");
    let query = prompt.authorize(&url).await.expect("returned");
    assert!(query.contains("error=access_denied"), "{query}");
    let visit = visits.recv().await.expect("the browser was opened");
    assert!(visit.page.contains("did not finish"), "{visit:?}");
    // Not displayed before the authorizer validated `state` and `iss` (2026-07-28).
    assert!(!visit.page.contains("access_denied"), "{visit:?}");
}

#[tokio::test]
async fn a_sign_in_nobody_finishes_times_out_and_says_so() {
    let prompt = LoopbackPrompt::bind(Box::new(|_| Ok(())), Duration::from_millis(300))
        .await
        .expect("binds");
    let port = port_of(prompt.redirect_uri());
    let url = Url::parse("https://auth.example.com/authorize").expect("url");
    let error = prompt.authorize(&url).await.expect_err("times out");
    assert!(error.to_string().contains("not finished within"), "{error}");
    assert!(
        tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_err(),
        "nothing listens after the timeout"
    );
}

#[tokio::test]
async fn only_web_urls_are_opened() {
    let opened = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let seen = opened.clone();
    let prompt = LoopbackPrompt::bind(
        Box::new(move |url| {
            seen.lock().expect("lock").push(url.to_owned());
            Ok(())
        }),
        Duration::from_millis(200),
    )
    .await
    .expect("binds");
    let file = Url::parse("file:///etc/passwd").expect("url");
    let error = prompt.authorize(&file).await.expect_err("refused");
    assert!(error.to_string().contains("not a web address"), "{error}");
    assert!(
        opened.lock().expect("lock").is_empty(),
        "nothing was opened"
    );

    let failing = LoopbackPrompt::bind(
        Box::new(|_| Err("no browser".to_owned())),
        Duration::from_secs(5),
    )
    .await
    .expect("binds");
    let url = Url::parse("https://auth.example.com/authorize").expect("url");
    let error = failing.authorize(&url).await.expect_err("no browser");
    assert!(error.to_string().contains("no browser"), "{error}");
}
