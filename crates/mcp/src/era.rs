//! Which era a connection speaks (2026-07-28 basic/versioning): the modern era sends version,
//! capabilities and client info in every request's `_meta` and learns about the server with
//! `server/discover`; the legacy era runs the `initialize` handshake. A dual-era client probes
//! with `server/discover` and falls back to `initialize` on anything that is not a recognised
//! modern error (basic/transports/stdio and streamable-http, "Backward Compatibility").
//!
//! The caller chooses with `EraChoice::{Auto, Legacy, Modern}` (default `Auto`);
//! `Client::era()` and `Client::era_reason()` say what was chosen and why. `Auto` probes with
//! `server/discover` carrying the modern `_meta` (the peer stamps `protocolVersion`,
//! `clientCapabilities` and `clientInfo` into every message's `_meta`). A `DiscoverResult` means
//! modern; a `-32022` answer is tried again with a version from its `data.supported`; a
//! recognised modern error (-32020, -32021, -32022) is final. So is a 401 the transport could not
//! authorize, since `initialize` would meet it too. Anything else (another error, another 4xx
//! without a modern body, no answer within `ClientOptions::discover_timeout`, 5 s by default)
//! falls back to `initialize`; when the probe had only timed out and `initialize` meets a modern
//! error, the server was modern but slow to start, and is probed again. A naive legacy server that answers the probe with an
//! `InitializeResult` is legacy too and is sent a real `initialize` (never
//! `notifications/initialized` without one; over HTTP that answer opens the session and fixes
//! the version header). The probe is never cancelled, so a legacy server sees nothing else
//! before `initialize`.

use std::time::Duration;

use serde_json::{Map, Value, json};

use crate::client_options::ClientOptions;
pub use crate::client_options::EraChoice;
use crate::error::{McpError, Result};
use crate::peer::Peer;
use crate::types::{Implementation, InitializeResult};

/// The tasks extension's identifier (ext-tasks), declared in every modern request's
/// capabilities.
pub const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// Modern revisions this client speaks, newest first.
pub const MODERN: &[&str] = &["2026-07-28"];

/// The `_meta` keys of a modern request and result (2026-07-28 basic/index, "`_meta`").
pub const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
pub const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
pub const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
pub const META_LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
pub const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
pub const META_SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// `HeaderMismatch`, `MissingRequiredClientCapability`, `UnsupportedProtocolVersion`: errors
/// only a modern server sends, so receiving one proves the server is modern.
const MODERN_ERRORS: &[i64] = &[-32020, -32021, -32022];

const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

/// The era a connection speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// 2024-11-05 … 2025-11-25: the `initialize` handshake.
    Legacy,
    /// 2026-07-28: per-request metadata, no handshake.
    Modern,
}

impl Era {
    pub fn as_str(self) -> &'static str {
        match self {
            Era::Legacy => "legacy",
            Era::Modern => "modern",
        }
    }
}

/// Whether an error came from a modern server (so falling back to `initialize` is wrong).
pub fn is_modern_error(error: &McpError) -> bool {
    match error {
        McpError::Rpc { error, .. } => MODERN_ERRORS.contains(&error.code),
        McpError::UnsupportedVersion { .. } => true,
        _ => false,
    }
}

/// The `_meta` every modern message carries.
pub fn request_meta(version: &str, options: &ClientOptions) -> Map<String, Value> {
    let mut meta = Map::new();
    meta.insert(META_PROTOCOL_VERSION.into(), json!(version));
    meta.insert(
        META_CLIENT_CAPABILITIES.into(),
        Value::Object(modern_capabilities(options)),
    );
    meta.insert(META_CLIENT_INFO.into(), json!(options.client_info));
    meta
}

/// The capabilities a modern request declares: the handler's, plus the tasks extension, which
/// every tool call follows (ext-tasks, "Capability Negotiation").
pub(crate) fn modern_capabilities(options: &ClientOptions) -> Map<String, Value> {
    let mut capabilities = options.capabilities.clone();
    if let Value::Object(extensions) = capabilities
        .entry("extensions")
        .or_insert_with(|| json!({}))
    {
        extensions
            .entry(TASKS_EXTENSION)
            .or_insert_with(|| json!({}));
    }
    capabilities
}

/// What the `server/discover` probe found.
#[derive(Debug)]
pub enum Probe {
    /// A modern server, described by its `DiscoverResult`.
    Modern(InitializeResult),
    /// A legacy server that took the probe for `initialize` and answered with an
    /// `InitializeResult` (naive servers treat the first message so). It is still sent a real
    /// `initialize`, as the fallback rule says.
    AnsweredAsInitialize(InitializeResult),
}

/// Learns about a modern server with `server/discover`, agreeing on a version: a `-32022`
/// answer names the server's versions, and one this client speaks is taken instead.
pub async fn discover(peer: &Peer, options: &ClientOptions, timeout: Duration) -> Result<Probe> {
    let mut version = MODERN[0].to_owned();
    for _ in 0..2 {
        peer.speak_modern(&version, request_meta(&version, options));
        match peer.request("server/discover", None, timeout).await {
            Ok(raw) => {
                if raw.get("supportedVersions").is_none()
                    && let Ok(init) = serde_json::from_value::<InitializeResult>(raw.clone())
                {
                    return Ok(Probe::AnsweredAsInitialize(init));
                }
                return parse_discover(raw, &version).map(Probe::Modern);
            }
            Err(McpError::Rpc { error, .. }) if error.code == UNSUPPORTED_PROTOCOL_VERSION => {
                let supported =
                    supported_versions(error.data.as_ref().and_then(|d| d.get("supported")));
                version = choose(&supported)?;
            }
            Err(e) => return Err(e),
        }
    }
    Err(McpError::InvalidResponse {
        method: "server/discover".into(),
        message: format!("the server refused version {version}, which it had offered"),
    })
}

fn supported_versions(list: Option<&Value>) -> Vec<String> {
    list.and_then(Value::as_array)
        .map(|l| {
            l.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// The newest modern version both sides speak.
fn choose(supported: &[String]) -> Result<String> {
    MODERN
        .iter()
        .find(|v| supported.iter().any(|s| s == *v))
        .map(|v| (*v).to_owned())
        .ok_or_else(|| McpError::UnsupportedVersion {
            version: supported.join(", "),
            supported: MODERN.join(", "),
        })
}

/// Reads a `DiscoverResult` into the shape the handshake gives, for one code path above.
fn parse_discover(raw: Value, requested: &str) -> Result<InitializeResult> {
    let Value::Object(mut fields) = raw else {
        return Err(McpError::InvalidResponse {
            method: "server/discover".into(),
            message: "not an object".into(),
        });
    };
    // Without `supportedVersions` this is no DiscoverResult: some legacy servers answer any
    // unknown request with an empty result, and must not be mistaken for modern ones.
    if !fields.get("supportedVersions").is_some_and(Value::is_array) {
        return Err(McpError::InvalidResponse {
            method: "server/discover".into(),
            message: "the result has no supportedVersions".into(),
        });
    }
    let supported = supported_versions(fields.get("supportedVersions"));
    let version = if supported.iter().any(|s| s == requested) {
        requested.to_owned()
    } else {
        choose(&supported)?
    };
    let server_info = fields
        .get("_meta")
        .and_then(|m| m.get("io.modelcontextprotocol/serverInfo"))
        .or_else(|| fields.get("serverInfo"))
        .and_then(|i| serde_json::from_value::<Implementation>(i.clone()).ok())
        .unwrap_or_else(|| Implementation::new("unknown", ""));
    let capabilities = match fields.remove("capabilities") {
        Some(Value::Object(map)) => map,
        _ => Map::new(),
    };
    let instructions = fields
        .remove("instructions")
        .and_then(|v| v.as_str().map(str::to_owned));
    Ok(InitializeResult {
        protocol_version: version,
        capabilities,
        server_info,
        instructions,
        extra: fields,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_discover_result_with_server_info_in_meta_or_at_the_top() {
        let raw = json!({"supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}},
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "s", "version": "1"}}, "ttlMs": 0});
        let init = parse_discover(raw, "2026-07-28").expect("valid");
        assert_eq!(
            (
                init.protocol_version.as_str(),
                init.server_info.name.as_str()
            ),
            ("2026-07-28", "s")
        );
        assert!(init.capabilities.contains_key("tools"));
        let top = json!({"supportedVersions": ["2026-07-28"], "capabilities": {}, "serverInfo": {"name": "t", "version": "2"}});
        assert_eq!(
            parse_discover(top, "2026-07-28")
                .expect("valid")
                .server_info
                .name,
            "t"
        );
    }

    #[test]
    fn an_answer_without_supported_versions_is_not_a_discover_result() {
        let error = parse_discover(json!({}), "2026-07-28").expect_err("legacy catch-all answer");
        assert!(
            !is_modern_error(&error),
            "it must lead to the initialize fallback: {error:?}"
        );
    }

    #[test]
    fn refuses_a_server_with_no_common_modern_version() {
        let raw = json!({"supportedVersions": ["2099-01-01"], "capabilities": {}});
        assert!(matches!(
            parse_discover(raw, "2026-07-28"),
            Err(McpError::UnsupportedVersion { .. })
        ));
    }
}
