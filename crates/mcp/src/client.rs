//! A connected MCP client: settles the era (`era`), then offers typed operations. One
//! [`Client`] owns one transport and its peer.
//!
//! In the handshake era it runs `initialize` offering 2025-11-25 and accepts the older
//! revisions a server may answer with (`protocol`), declaring the capabilities the caller's
//! handler answers (`ClientOptions::capabilities`), and waits (up to 5 s) for the transport to
//! settle, its standalone GET stream open or known to be unavailable, before the first request.
//! `connect_http` in `HttpMode::Auto` follows the spec's backwards compatibility: a 400, 404 or
//! 405 to Streamable HTTP that no modern error explains falls back to HTTP+SSE. Every list goes
//! through `list_all` (`listing`), at most 1,000 pages and 32 MiB across them by default
//! (`ClientOptions::max_pages`, `ClientOptions::max_list_bytes`).

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

use crate::era::{self, Era};
use crate::error::{McpError, Result};
use crate::peer::{Handler, Peer};
use crate::protocol;
use crate::transport::Transport;
use crate::transport::http_config::HttpConfig;
use crate::transport::legacy_sse::LegacySseTransport;
use crate::transport::stdio::{StdioConfig, StdioTransport};
use crate::transport::streamable_http::StreamableHttpTransport;
use crate::types::{InitializeResult, Tool};

mod listing;

pub use crate::client_options::{ClientOptions, EraChoice, HttpMode, MAX_LIST_BYTES};

/// How long to wait for a transport to settle after the handshake.
const READY_TIMEOUT: Duration = Duration::from_secs(5);

/// A live, initialized connection to one server.
pub struct Client {
    peer: Peer,
    transport: Box<dyn Transport>,
    init: InitializeResult,
    options: ClientOptions,
    /// Tools by name as last listed.
    tools: std::sync::Mutex<std::collections::HashMap<String, std::sync::Arc<Tool>>>,
    era: Era,
    /// Why this era was chosen, for `gatehouse info`.
    era_reason: String,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("transport", &self.transport.kind())
            .field("server", &self.init.server_info.name)
            .field("protocol_version", &self.init.protocol_version)
            .finish()
    }
}

impl Client {
    /// Starts a stdio server and initializes it.
    pub async fn connect_stdio(
        config: &StdioConfig,
        options: ClientOptions,
        handler: Arc<dyn Handler>,
    ) -> Result<Client> {
        let (transport, link) = StdioTransport::spawn(config)?;
        let peer = Peer::start_tapped(link, handler, options.tap.clone());
        Self::initialize(peer, Box::new(transport), options).await
    }

    /// Connects to an HTTP server with the given transport choice and initializes it.
    pub async fn connect_http(
        config: &HttpConfig,
        mode: HttpMode,
        options: ClientOptions,
        handler: Arc<dyn Handler>,
    ) -> Result<Client> {
        match mode {
            HttpMode::StreamableHttp => Self::connect_streamable(config, options, handler).await,
            HttpMode::Sse => Self::connect_legacy_sse(config, options, handler).await,
            HttpMode::Auto => {
                match Self::connect_streamable(config, options.clone(), handler.clone()).await {
                    // Only an HTTP status the transport saw counts, and not one that a modern
                    // server's own error explains.
                    Err(e)
                        if matches!(e.http_status(), Some(400 | 404 | 405))
                            && !era::is_modern_error(&e) =>
                    {
                        tracing::info!(
                            "{} refused Streamable HTTP ({e}); trying HTTP+SSE",
                            config.url
                        );
                        Self::connect_legacy_sse(config, options, handler)
                            .await
                            .map_err(|legacy| McpError::Transport {
                                message: format!(
                                    "Streamable HTTP failed ({e}), and so did HTTP+SSE ({legacy})"
                                ),
                            })
                    }
                    other => other,
                }
            }
        }
    }

    async fn connect_streamable(
        config: &HttpConfig,
        options: ClientOptions,
        handler: Arc<dyn Handler>,
    ) -> Result<Client> {
        let (transport, link) = StreamableHttpTransport::start(config.clone())?;
        let peer = Peer::start_tapped(link, handler, options.tap.clone());
        Self::initialize(peer, Box::new(transport), options).await
    }

    async fn connect_legacy_sse(
        config: &HttpConfig,
        options: ClientOptions,
        handler: Arc<dyn Handler>,
    ) -> Result<Client> {
        let (transport, link) = LegacySseTransport::connect(config.clone()).await?;
        let peer = Peer::start_tapped(link, handler, options.tap.clone());
        // HTTP+SSE predates the modern era: no probe.
        let options = ClientOptions {
            era: EraChoice::Legacy,
            era_reason: Some("HTTP+SSE predates the modern era".to_owned()),
            ..options
        };
        Self::initialize(peer, Box::new(transport), options).await
    }

    /// Settles the era over a started transport (probe, discover or handshake); closes the
    /// transport if that fails.
    async fn initialize(
        peer: Peer,
        mut transport: Box<dyn Transport>,
        options: ClientOptions,
    ) -> Result<Client> {
        match establish(&peer, &options).await {
            Ok((init, era, era_reason)) => {
                if era == Era::Legacy
                    && tokio::time::timeout(READY_TIMEOUT, transport.ready())
                        .await
                        .is_err()
                {
                    tracing::debug!(
                        "the transport did not settle within {READY_TIMEOUT:?}; going on"
                    );
                }
                Ok(Client {
                    peer,
                    transport,
                    init,
                    options,
                    tools: std::sync::Mutex::default(),
                    era,
                    era_reason,
                })
            }
            Err(e) => {
                if let Err(close_error) = transport.close().await {
                    tracing::debug!("closing after a failed handshake: {close_error}");
                }
                Err(e)
            }
        }
    }

    /// The era this connection speaks.
    pub fn era(&self) -> Era {
        self.era
    }

    /// Why that era was chosen.
    pub fn era_reason(&self) -> &str {
        &self.era_reason
    }

    /// What the server said about itself in the handshake.
    pub fn initialize_result(&self) -> &InitializeResult {
        &self.init
    }

    /// The transport's kind: `stdio`, `streamable-http` or `sse`.
    pub fn transport_kind(&self) -> &'static str {
        self.transport.kind()
    }

    /// Recent diagnostic output, such as a stdio server's stderr.
    pub fn diagnostics(&self) -> Vec<String> {
        self.transport.diagnostics()
    }

    /// How long a plain request may take before it is cancelled.
    pub(crate) fn request_timeout(&self) -> Duration {
        self.options.request_timeout
    }

    /// The capabilities of the caller's handler, as declared (without the tasks extension).
    pub(crate) fn handler_capabilities(&self) -> &serde_json::Map<String, Value> {
        &self.options.capabilities
    }

    /// What every modern request declares: the handler's capabilities and the tasks extension.
    pub(crate) fn declared_capabilities(&self) -> serde_json::Map<String, Value> {
        crate::era::modern_capabilities(&self.options)
    }

    /// The underlying peer, for raw requests.
    pub fn peer(&self) -> &Peer {
        &self.peer
    }

    /// Replaces the tools remembered by name with `tools`, as just listed.
    pub(crate) fn remember_tools(&self, tools: &[Tool]) {
        let mut cache = self
            .tools
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        cache.clear();
        cache.extend(
            tools
                .iter()
                .map(|t| (t.name.clone(), std::sync::Arc::new(t.clone()))),
        );
    }

    /// A tool's definition as last listed (for validating its results, and for the host to
    /// know what it is asked to call). The same `Arc` until the tools are listed again.
    pub fn cached_tool(&self, name: &str) -> Option<std::sync::Arc<Tool>> {
        self.tools
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(name)
            .cloned()
    }

    /// The names of the tools as last listed, in no particular order (none before the first
    /// listing).
    pub fn cached_tool_names(&self) -> Vec<String> {
        self.tools
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .keys()
            .cloned()
            .collect()
    }

    /// Waits until the connection ends on its own and returns why.
    pub async fn wait_closed(&self) -> String {
        self.peer.wait_closed().await
    }

    /// Ends the connection and stops the server.
    pub async fn close(mut self) -> Result<()> {
        self.transport.close().await
    }
}

/// Picks the era as `options.era` asks and returns what the server said about itself.
async fn establish(
    peer: &Peer,
    options: &ClientOptions,
) -> Result<(InitializeResult, Era, String)> {
    let found = |init, era, why: &str| Ok((init, era, why.to_owned()));
    let given = |requested: &'static str| options.era_reason.as_deref().unwrap_or(requested);
    match options.era {
        EraChoice::Legacy => found(
            handshake(peer, options).await?,
            Era::Legacy,
            given("legacy was requested"),
        ),
        EraChoice::Modern => match era::discover(peer, options, options.request_timeout).await? {
            era::Probe::Modern(init) => found(init, Era::Modern, given("modern was requested")),
            era::Probe::AnsweredAsInitialize(init) => Err(McpError::UnsupportedVersion {
                version: init.protocol_version,
                supported: era::MODERN.join(", "),
            }),
        },
        EraChoice::Auto => match era::discover(peer, options, options.discover_timeout).await {
            Ok(era::Probe::Modern(init)) => {
                found(init, Era::Modern, "the server answered server/discover")
            }
            // Not a DiscoverResult, so the server is legacy (2026-07-28 basic/transports/stdio,
            // "Backward Compatibility"): shake hands for real. `notifications/initialized` never
            // follows anything but `initialize`, and over HTTP it is `initialize` whose answer
            // opens the session and fixes the protocol version header.
            Ok(era::Probe::AnsweredAsInitialize(_)) => {
                peer.speak_legacy();
                let init = handshake(peer, options).await?;
                found(
                    init,
                    Era::Legacy,
                    "the server took server/discover for initialize; initialize worked",
                )
            }
            Err(e) if era::is_modern_error(&e) => Err(e),
            // The server wants authorization, and the transport could not get it (nobody to
            // sign in, or it was refused): `initialize` would meet the same 401, and ask the
            // person a second time.
            Err(e) if e.http_status() == Some(401) => Err(e),
            Err(probe) => {
                // Not a modern server: forget the modern `_meta` and shake hands.
                peer.speak_legacy();
                match handshake(peer, options).await {
                    Ok(init) => Ok((
                        init,
                        Era::Legacy,
                        format!("server/discover failed ({probe}); initialize worked"),
                    )),
                    // A modern server too slow to answer the probe in time (one starting on a
                    // busy machine) refuses `initialize` with a modern error: it is modern after
                    // all, so it is asked again, waited for as any request is.
                    Err(refused)
                        if matches!(probe, McpError::Timeout { .. })
                            && era::is_modern_error(&refused) =>
                    {
                        match era::discover(peer, options, options.request_timeout).await? {
                            era::Probe::Modern(init) => found(
                                init,
                                Era::Modern,
                                "server/discover answered late; the server refused initialize as a modern one, and answered server/discover again",
                            ),
                            era::Probe::AnsweredAsInitialize(_) => Err(refused),
                        }
                    }
                    Err(refused) => Err(refused),
                }
            }
        },
    }
}

async fn handshake(peer: &Peer, options: &ClientOptions) -> Result<InitializeResult> {
    let params = json!({
        "protocolVersion": protocol::LATEST,
        "capabilities": options.capabilities,
        "clientInfo": options.client_info,
    });
    let raw = peer
        .request("initialize", Some(params), options.initialize_timeout)
        .await?;
    finish_handshake(peer, parse_initialize(raw)?).await
}

/// Checks the negotiated version and confirms the handshake with `notifications/initialized`.
async fn finish_handshake(peer: &Peer, init: InitializeResult) -> Result<InitializeResult> {
    if !protocol::is_supported(&init.protocol_version) {
        return Err(McpError::UnsupportedVersion {
            version: init.protocol_version,
            supported: protocol::SUPPORTED.join(", "),
        });
    }
    peer.notify("notifications/initialized", None).await?;
    Ok(init)
}

fn parse_initialize(raw: Value) -> Result<InitializeResult> {
    serde_json::from_value(raw).map_err(|e| McpError::InvalidResponse {
        method: "initialize".to_owned(),
        message: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presents_itself_with_title_description_and_an_inline_icon() {
        let info = ClientOptions::default().client_info;
        assert_eq!(info.name, "gatehouse");
        assert_eq!(info.title.as_deref(), Some("Gatehouse"));
        assert!(
            info.extra
                .get("description")
                .and_then(Value::as_str)
                .is_some_and(|d| !d.is_empty())
        );
        let src = info
            .extra
            .get("icons")
            .and_then(|i| i.get(0))
            .and_then(|i| i.get("src"))
            .and_then(Value::as_str);
        assert!(
            src.is_some_and(|s| s.starts_with("data:image/png;base64,iVBOR")),
            "the icon is an inline PNG, so no server fetches anything: {src:?}"
        );
    }
}
