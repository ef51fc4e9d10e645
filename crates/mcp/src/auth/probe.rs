//! Asking a server for its challenge: an `initialize` POST without a token, whose 401 carries
//! the `WWW-Authenticate` values (`resource_metadata`, `scope`) a sign-in starts from.

use url::Url;

/// The `WWW-Authenticate` values of the server's answer to an `initialize` POST without a
/// token; none if it did not answer 401 (a legacy SSE endpoint refuses the POST otherwise,
/// and discovery then uses the well-known URLs).
pub(super) async fn challenge(
    http: &reqwest::Client,
    server: &Url,
    client_name: &str,
) -> Vec<String> {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": client_name, "version": "0"}
        }
    });
    let sent = http
        .post(server.clone())
        .header("accept", "application/json, text/event-stream")
        .json(&body)
        .send()
        .await;
    match sent {
        Ok(response) if response.status() == reqwest::StatusCode::UNAUTHORIZED => response
            .headers()
            .get_all(reqwest::header::WWW_AUTHENTICATE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .map(str::to_owned)
            .collect(),
        Ok(_) => Vec::new(),
        Err(e) => {
            tracing::info!(
                "asking {} for its challenge failed: {}",
                server,
                e.without_url()
            );
            Vec::new()
        }
    }
}
