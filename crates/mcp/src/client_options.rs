//! The options of a [`crate::client::Client`], below both it and [`crate::era`]: how it presents
//! itself and how long it waits ([`ClientOptions`]), which era and which HTTP transport it
//! speaks, and the default bound on a listing's bytes.

use std::time::Duration;

use serde_json::{Value, json};

use crate::peer::tap::Tap;
use crate::types::Implementation;

/// The default cap on one listing's pages together: 32 MiB, twice the largest single message
/// (16 MiB), far beyond any real server's list.
pub const MAX_LIST_BYTES: usize = 32 << 20;

/// The app icon as an `Icon` (2025-11-25 schema): a data URI, so no server ever fetches it
/// (and the bundled demo server's, shown by the window without a fetch).
pub fn app_icon() -> Value {
    use base64::Engine as _;
    const PNG: &[u8] = include_bytes!("../../../icons/32x32.png");
    let data = base64::engine::general_purpose::STANDARD.encode(PNG);
    json!({ "src": format!("data:image/png;base64,{data}"), "mimeType": "image/png", "sizes": ["32x32"] })
}

/// How a client presents itself and how long it waits.
#[derive(Debug, Clone)]
pub struct ClientOptions {
    pub client_info: Implementation,
    pub request_timeout: Duration,
    pub initialize_timeout: Duration,
    /// Upper bound on list pages, against servers that loop their cursors.
    pub max_pages: usize,
    /// Upper bound on the bytes of all the pages of one listing, against servers whose pages
    /// never end or are all huge ([`MAX_LIST_BYTES`] by default).
    pub max_list_bytes: usize,
    /// Client capabilities to declare: only what the connection's handler really answers
    /// (2025-11-25 basic/lifecycle, "Capability Negotiation").
    pub capabilities: serde_json::Map<String, Value>,
    /// Which era to speak; `Auto` probes with `server/discover` first.
    pub era: EraChoice,
    /// Why `era` was chosen when it is not `Auto`, as [`Client::era_reason`] says it (the host
    /// remembered it from an earlier connection); `None` says it was requested.
    pub era_reason: Option<String>,
    /// How long the `server/discover` probe may take before the server counts as legacy.
    pub discover_timeout: Duration,
    /// Told of every message sent and received (the host's traffic record), if set.
    pub tap: Option<Tap>,
}

impl Default for ClientOptions {
    fn default() -> Self {
        let mut client_info = Implementation::new("gatehouse", env!("CARGO_PKG_VERSION"));
        client_info.title = Some("Gatehouse".to_owned());
        client_info.extra.insert(
            "description".into(),
            json!("A desktop MCP host: servers, approvals and an audit log"),
        );
        client_info
            .extra
            .insert("icons".into(), json!([app_icon()]));
        Self {
            client_info,
            request_timeout: Duration::from_secs(60),
            initialize_timeout: Duration::from_secs(30),
            max_pages: 1000,
            max_list_bytes: MAX_LIST_BYTES,
            capabilities: serde_json::Map::new(),
            era: EraChoice::Auto,
            era_reason: None,
            discover_timeout: Duration::from_secs(5),
            tap: None,
        }
    }
}

/// Which HTTP transport to speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum HttpMode {
    /// Streamable HTTP, falling back to HTTP+SSE as the 2025-11-25 spec's backwards-compatibility
    /// section describes (a 400, 404 or 405 answer to the `initialize` POST).
    #[default]
    Auto,
    StreamableHttp,
    Sse,
}

/// Which era to use when connecting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EraChoice {
    /// Probe with `server/discover`, fall back to `initialize`.
    #[default]
    Auto,
    Legacy,
    Modern,
}
