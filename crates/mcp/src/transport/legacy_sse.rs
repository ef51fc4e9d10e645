//! The HTTP+SSE transport of 2024-11-05 (basic/transports, "HTTP with SSE"): one long GET
//! stream whose first `endpoint` event names the URL to POST messages to; the server answers on
//! the stream as `message` events. Still spoken by many deployed servers.
//!
//! With an authorizer in the configuration, the GET and every POST carry the bearer token, and a
//! 401 (or a 403 `insufficient_scope`) is authorized and the request sent again, as the
//! Streamable HTTP transport does.

use std::time::Duration;

use reqwest::header::{ACCEPT, CONTENT_TYPE};
use tokio::sync::{mpsc, oneshot};

use super::http_config::{
    HttpConfig, dpop_nonce, no_authorizer_failure, transport_error, unauthorized_message,
    with_authorization, www_authenticate,
};
use super::owned_task::OwnedTask;
use super::sse::{SseItem, SseReader, StreamEnd, is_event_stream};
use super::{BoxFuture, Inbound, Link, Outbound, Transport, TransportFailure};
use crate::error::{McpError, Result};
use crate::http_auth::AccessToken;
use crate::http_body::bounded_body;
use crate::jsonrpc::RequestId;

/// How long the server has to announce its endpoint.
const ENDPOINT_TIMEOUT: Duration = Duration::from_secs(15);

/// A legacy HTTP+SSE connection.
#[derive(Debug)]
pub struct LegacySseTransport {
    /// The event stream's reader and the writer; dropping the transport stops both.
    tasks: Vec<OwnedTask>,
    inbound: mpsc::Sender<Inbound>,
    endpoint: url::Url,
}

impl LegacySseTransport {
    /// Opens the event stream and waits for the `endpoint` event.
    pub async fn connect(config: HttpConfig) -> Result<(Self, Link)> {
        let client = config.client()?;
        let mut authorizations = 0;
        let response = loop {
            let token = access_token(&config).await;
            let request = client
                .get(config.url.clone())
                .header(ACCEPT, "text/event-stream");
            let response = with_authorization(request, &config, token.as_ref(), "GET")
                .send()
                .await
                .map_err(|e| transport_error(super::http_config::unreachable(&config.url, &e)))?;
            match authorize(&config, &response, token.as_ref(), &mut authorizations).await {
                Some(Ok(())) => continue,
                // Typed, so that `http_status()` says 401 and the host can show "auth required".
                Some(Err(failure)) => {
                    return Err(McpError::RequestFailed {
                        method: "GET".into(),
                        failure: Box::new(failure),
                    });
                }
                None => break response,
            }
        };
        if !response.status().is_success() || !is_event_stream(&response) {
            return Err(transport_error(format!(
                "{} is not an HTTP+SSE endpoint: GET answered HTTP {}",
                config.url,
                response.status()
            )));
        }
        let (in_tx, in_rx) = mpsc::channel::<Inbound>(256);
        let (out_tx, out_rx) = mpsc::channel::<Outbound>(64);
        let (endpoint_tx, endpoint_rx) = oneshot::channel::<String>();
        // Owned from the start: every early return below stops it.
        let reader = OwnedTask::spawn(read_loop(
            response,
            config.max_message_bytes,
            in_tx.clone(),
            endpoint_tx,
        ));
        let announced = tokio::time::timeout(ENDPOINT_TIMEOUT, endpoint_rx).await;
        let endpoint = match announced {
            Ok(Ok(endpoint)) => config.url.join(&endpoint).map_err(|e| {
                transport_error(format!(
                    "the server announced an invalid endpoint `{endpoint}`: {e}"
                ))
            })?,
            Ok(Err(_)) => {
                return Err(transport_error(
                    "the event stream ended before announcing an endpoint".into(),
                ));
            }
            Err(_) => {
                return Err(transport_error(format!(
                    "no `endpoint` event within {ENDPOINT_TIMEOUT:?}"
                )));
            }
        };
        if endpoint.origin() != config.url.origin() {
            return Err(transport_error(format!(
                "the server announced an endpoint on another origin: {endpoint}"
            )));
        }
        let writer = OwnedTask::spawn(write_loop(
            client,
            endpoint.clone(),
            config.clone(),
            out_rx,
            in_tx.clone(),
        ));
        let transport = Self {
            tasks: vec![reader, writer],
            inbound: in_tx,
            endpoint,
        };
        Ok((
            transport,
            Link {
                outbound: out_tx,
                inbound: in_rx,
            },
        ))
    }

    /// Where messages are posted.
    pub fn endpoint(&self) -> &url::Url {
        &self.endpoint
    }
}

impl Transport for LegacySseTransport {
    fn kind(&self) -> &'static str {
        "sse"
    }

    fn diagnostics(&self) -> Vec<String> {
        Vec::new()
    }

    fn close(&mut self) -> BoxFuture<'_, Result<()>> {
        Box::pin(async move {
            for task in self.tasks.drain(..) {
                task.stop().await;
            }
            let _ = self
                .inbound
                .send(Inbound::Closed {
                    reason: "the client closed the connection".into(),
                })
                .await;
            Ok(())
        })
    }
}

async fn read_loop(
    response: reqwest::Response,
    max_len: usize,
    inbound: mpsc::Sender<Inbound>,
    endpoint: oneshot::Sender<String>,
) {
    let mut endpoint = Some(endpoint);
    let mut end = StreamEnd::default();
    let mut reader = SseReader::new(response, max_len, &mut end);
    while let Some(item) = reader.next().await {
        match item {
            SseItem::Other { event, data } if event == "endpoint" => {
                if let Some(sender) = endpoint.take() {
                    let _ = sender.send(data.trim().to_owned());
                }
            }
            SseItem::Message(message) => {
                if inbound.send(Inbound::Message(message)).await.is_err() {
                    return;
                }
            }
            SseItem::Other { event, .. } => tracing::debug!("ignoring an SSE `{event}` event"),
        }
    }
    let reason = end
        .error
        .unwrap_or_else(|| "the server closed the event stream".to_owned());
    let _ = inbound.send(Inbound::Closed { reason }).await;
}

/// Posts messages in order; a request whose POST fails gets an error response.
async fn write_loop(
    client: reqwest::Client,
    endpoint: url::Url,
    config: HttpConfig,
    mut outbound: mpsc::Receiver<Outbound>,
    inbound: mpsc::Sender<Inbound>,
) {
    while let Some(Outbound { message, .. }) = outbound.recv().await {
        let mut authorizations = 0;
        let failure = loop {
            let token = access_token(&config).await;
            let request = client
                .post(endpoint.clone())
                .header(CONTENT_TYPE, "application/json")
                .body(message.to_string());
            let sent = with_authorization(request, &config, token.as_ref(), "POST")
                .send()
                .await;
            let response = match sent {
                Ok(response) => response,
                Err(e) => {
                    break Some(TransportFailure::Unreachable {
                        message: super::http_config::unreachable(&endpoint, &e),
                    });
                }
            };
            match authorize(&config, &response, token.as_ref(), &mut authorizations).await {
                Some(Ok(())) => continue,
                Some(Err(failure)) => break Some(failure),
                None => {}
            }
            if response.status().is_success() {
                let _ = bounded_body(response, config.max_message_bytes).await;
                break None;
            }
            break Some(TransportFailure::Status {
                status: response.status().as_u16(),
                message: format!("HTTP {}", response.status()),
            });
        };
        let Some(failure) = failure else {
            continue;
        };
        let id = message.get("method").and(message.get("id")).cloned();
        match id.and_then(|id| serde_json::from_value::<RequestId>(id).ok()) {
            Some(id) => {
                let _ = inbound.send(Inbound::Failed { id, failure }).await;
            }
            None => tracing::warn!("posting a message failed: {failure}"),
        }
    }
}

async fn access_token(config: &HttpConfig) -> Option<AccessToken> {
    match &config.authorizer {
        Some(authorizer) => authorizer.access_token().await,
        None => None,
    }
}

/// `None` when `response` is no authorization challenge this transport answers; `Some(Ok)` to
/// send again after authorizing; `Some(Err)` to fail with a 401/403 saying what to do.
async fn authorize(
    config: &HttpConfig,
    response: &reqwest::Response,
    sent: Option<&AccessToken>,
    authorizations: &mut u32,
) -> Option<std::result::Result<(), TransportFailure>> {
    let status = response.status();
    let www_authenticate = www_authenticate(response);
    // Only an authorizer can answer a step-up; without one a 403 is any other HTTP error.
    let step_up = status == reqwest::StatusCode::FORBIDDEN
        && (config.authorizer.as_ref()).is_some_and(|a| a.is_step_up(&www_authenticate));
    if status != reqwest::StatusCode::UNAUTHORIZED && !step_up {
        return None;
    }
    let url = &config.url;
    let Some(authorizer) = &config.authorizer else {
        if step_up {
            return None;
        }
        return Some(Err(no_authorizer_failure(url)));
    };
    if *authorizations >= authorizer.max_attempts() {
        return Some(Err(TransportFailure::Status {
            status: status.as_u16(),
            message: format!(
                "HTTP {status} from {url}: still refused after {authorizations} authorization \
                 attempts"
            ),
        }));
    }
    *authorizations += 1;
    Some(
        authorizer
            .challenged(
                status.as_u16(),
                &www_authenticate,
                dpop_nonce(response).as_deref(),
                sent.map(|t| &t.token),
            )
            .await
            .map_err(|e| TransportFailure::Status {
                status: 401,
                message: unauthorized_message(url, &e.to_string()),
            }),
    )
}
