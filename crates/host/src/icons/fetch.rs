//! Fetching an `https:` icon as the spec asks (2025-11-25 basic/index, "Security
//! considerations"): no cookies, no `Authorization` or other credentials, redirects followed
//! only on the same origin and scheme, a short timeout, and the body read under the size cap
//! so a server cannot make the host download more.

use std::time::Duration;

use futures_util::StreamExt;
use reqwest::header::{ACCEPT, CONTENT_LENGTH};
use reqwest::redirect::{Attempt, Policy};
use url::Url;

use super::image_check::{IconRejected, MAX_ICON_BYTES};

const TIMEOUT: Duration = Duration::from_secs(5);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);
const MAX_REDIRECTS: usize = 3;

/// The client icons are fetched with (the tests add their own certificate authority to it).
/// reqwest keeps no cookies unless asked to, and this client is never given a header.
pub fn client_builder() -> reqwest::ClientBuilder {
    reqwest::Client::builder()
        .redirect(Policy::custom(same_origin_redirect))
        .timeout(TIMEOUT)
        .connect_timeout(CONNECT_TIMEOUT)
        .user_agent(concat!("Gatehouse/", env!("CARGO_PKG_VERSION")))
}

/// A redirect is followed only to `https:` on the origin first asked, at most three times.
fn same_origin_redirect(attempt: Attempt<'_>) -> reqwest::redirect::Action {
    let first = attempt.previous().first().map(Url::origin);
    let allowed = attempt.url().scheme() == "https"
        && first.is_some_and(|origin| origin == attempt.url().origin())
        && attempt.previous().len() <= MAX_REDIRECTS;
    if allowed {
        attempt.follow()
    } else {
        attempt.error("the icon redirects to another origin")
    }
}

/// The bytes at `url`, at most [`MAX_ICON_BYTES`] of them.
pub async fn fetch(client: &reqwest::Client, url: &Url) -> Result<Vec<u8>, IconRejected> {
    let failed = |e: reqwest::Error| IconRejected::Fetch(without_url(&e));
    let response = client
        .get(url.clone())
        .header(ACCEPT, "image/png, image/jpeg, image/webp, image/svg+xml")
        .send()
        .await
        .map_err(failed)?;
    let status = response.status();
    if !status.is_success() {
        return Err(IconRejected::Fetch(format!("HTTP {}", status.as_u16())));
    }
    let declared = response
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|length| length > MAX_ICON_BYTES) {
        return Err(IconRejected::TooLarge);
    }
    let mut bytes = Vec::new();
    let mut body = response.bytes_stream();
    while let Some(chunk) = body.next().await {
        let chunk = chunk.map_err(failed)?;
        if bytes.len() + chunk.len() > MAX_ICON_BYTES {
            return Err(IconRejected::TooLarge);
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}

/// A reqwest error's message without the URL (the icon's address is known to the caller).
fn without_url(error: &reqwest::Error) -> String {
    if error.is_redirect() {
        return "the icon redirects to another origin".to_owned();
    }
    if error.is_timeout() {
        return "timed out".to_owned();
    }
    let message = error.to_string();
    match error.url() {
        Some(url) => message.replace(&format!(" ({url})"), ""),
        None => message,
    }
}
