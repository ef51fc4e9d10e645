//! The gateway's 2026-07-28 requests: no `initialize`, every request carries its protocol
//! version, client capabilities and (optionally) client info in `_meta` (2026-07-28
//! basic/versioning, "Protocol Version Negotiation"). [`request_meta`] reads and checks that
//! `_meta`; [`before`] answers what the modern era answers itself (`server/discover`, and the
//! methods it removed, which are unknown to it); [`after`] stamps a result as the era wants it
//! (`resultType`, `serverInfo` in `_meta`, cache hints on the cacheable results,
//! server/utilities/caching). Both eras may share one stdio connection (basic/versioning,
//! "A dual-era server MAY serve both eras concurrently"); a request is modern when its `_meta`
//! names a protocol version, or it is `server/discover`.

use gatehouse_mcp::era::{
    META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_LOG_LEVEL, META_PROTOCOL_VERSION,
    META_SERVER_INFO,
};
use serde_json::{Map, Value, json};

use super::handshake;
use super::notices::LEVELS;
use super::profiles::Served;
use super::replies::{Failure, fail};
use crate::host::Host;

/// The modern revisions the gateway serves.
pub const VERSIONS: [&str; 1] = ["2026-07-28"];

/// The error numbers of the modern era (basic/index, "Error Codes").
pub mod code {
    pub const INVALID_PARAMS: i64 = -32602;
    pub const METHOD_NOT_FOUND: i64 = -32601;
    pub const HEADER_MISMATCH: i64 = -32020;
    pub const MISSING_CLIENT_CAPABILITY: i64 = -32021;
    pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
}

/// Methods of the 2025 eras the modern era removed (changelog, major changes 4 and 5): a
/// modern request for one is answered "method not found", as for any method not served.
const REMOVED: [&str; 6] = [
    "initialize",
    "ping",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
    "notifications/initialized",
];

/// Results that carry cache hints (server/utilities/caching, "Cacheable Results").
const CACHEABLE: [&str; 6] = [
    "server/discover",
    "tools/list",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
    "resources/read",
];

/// The longest requested version echoed back in an error.
const MAX_ECHOED: usize = 64;

/// A modern request refused before it is served: a JSON-RPC error.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    pub code: i64,
    pub message: String,
    pub data: Option<Value>,
}

impl Refusal {
    fn invalid(message: impl Into<String>) -> Refusal {
        Refusal {
            code: code::INVALID_PARAMS,
            message: message.into(),
            data: None,
        }
    }

    /// The refusal as the error object of a JSON-RPC response.
    pub fn error(&self) -> Value {
        let mut error = json!({ "code": self.code, "message": self.message });
        if let Some(data) = &self.data {
            error["data"] = data.clone();
        }
        error
    }
}

/// What a modern request's `_meta` says of its client.
#[derive(Debug, Clone, PartialEq)]
pub struct RequestMeta {
    pub version: String,
    pub capabilities: Map<String, Value>,
    /// The client's `clientInfo`, as `initialize` would have carried it (for the audit).
    pub client_info: Option<Value>,
    pub log_level: Option<String>,
}

/// Whether `message` is a modern request: its `_meta` names a protocol version, or it asks
/// `server/discover` (which only the modern era has).
pub fn is_modern(message: &Value) -> bool {
    message.get("method").and_then(Value::as_str) == Some("server/discover")
        || message
            .pointer("/params/_meta")
            .and_then(Value::as_object)
            .is_some_and(|meta| meta.contains_key(META_PROTOCOL_VERSION))
}

/// The `_meta` of a modern request's params, checked: a protocol version the gateway serves,
/// client capabilities as an object, client info (optional) with a name, a known log level.
pub fn request_meta(params: &Value) -> Result<RequestMeta, Refusal> {
    let Some(meta) = params.get("_meta") else {
        return Err(Refusal::invalid(format!(
            "Invalid params: a 2026-07-28 request carries `_meta` with `{META_PROTOCOL_VERSION}` and `{META_CLIENT_CAPABILITIES}`"
        )));
    };
    let Some(meta) = meta.as_object() else {
        return Err(Refusal::invalid("Invalid params: `_meta` is not an object"));
    };
    let missing: Vec<&str> = [META_PROTOCOL_VERSION, META_CLIENT_CAPABILITIES]
        .into_iter()
        .filter(|key| !meta.contains_key(*key))
        .collect();
    if !missing.is_empty() {
        return Err(Refusal::invalid(format!(
            "Invalid params: missing _meta keys: {}",
            missing.join(", ")
        )));
    }
    let Some(version) = meta.get(META_PROTOCOL_VERSION).and_then(Value::as_str) else {
        return Err(Refusal::invalid(format!(
            "Invalid params: `{META_PROTOCOL_VERSION}` is not a string"
        )));
    };
    if !VERSIONS.contains(&version) {
        return Err(unsupported(version));
    }
    let Some(capabilities) = meta
        .get(META_CLIENT_CAPABILITIES)
        .and_then(Value::as_object)
    else {
        return Err(Refusal::invalid(format!(
            "Invalid params: `{META_CLIENT_CAPABILITIES}` is not an object"
        )));
    };
    let client_info = match meta.get(META_CLIENT_INFO) {
        None | Some(Value::Null) => None,
        Some(info) => {
            if !info.get("name").is_some_and(Value::is_string) {
                return Err(Refusal::invalid(format!(
                    "Invalid params: `{META_CLIENT_INFO}` is not an object with a `name`"
                )));
            }
            crate::vocabulary::caller_info::from_initialize(&json!({ "clientInfo": info }))
        }
    };
    let log_level = match meta.get(META_LOG_LEVEL) {
        None => None,
        Some(level) => match level.as_str().filter(|l| LEVELS.contains(l)) {
            Some(level) => Some(level.to_owned()),
            None => {
                return Err(Refusal::invalid(format!(
                    "Invalid params: `{META_LOG_LEVEL}` is not a log level: one of {}",
                    LEVELS.join(", ")
                )));
            }
        },
    };
    Ok(RequestMeta {
        version: version.to_owned(),
        capabilities: capabilities.clone(),
        client_info,
        log_level,
    })
}

/// `UnsupportedProtocolVersionError` (basic/versioning): the versions served, and the one asked
/// for (clipped).
pub fn unsupported(requested: &str) -> Refusal {
    let requested: String = requested.chars().take(MAX_ECHOED).collect();
    Refusal {
        code: code::UNSUPPORTED_PROTOCOL_VERSION,
        message: "Unsupported protocol version".to_owned(),
        data: Some(json!({ "supported": VERSIONS, "requested": requested })),
    }
}

/// What the modern era answers itself: `server/discover`, and the removed methods (unknown to
/// it). `None`: the request is served as in the 2025 eras.
pub async fn before(host: &Host, served: &Served, method: &str) -> Option<Result<Value, Failure>> {
    if method == "server/discover" {
        return Some(Ok(discover(host, served).await));
    }
    if REMOVED.contains(&method) {
        let why = format!("Method not found: the 2026-07-28 era has no `{method}`");
        return Some(Err(fail(code::METHOD_NOT_FOUND, why)));
    }
    None
}

/// The response to a modern request, as the era wants it: a result through [`after`]; a
/// resource not found names its URI in `data` (server/resources, "Error Handling", SEP-2164); a
/// missing client capability names the tasks extension.
pub fn respond(method: &str, params: &Value, mut response: Value) -> Value {
    if let Some(result) = response.get_mut("result") {
        *result = after(method, result.take());
    } else if method == "resources/read"
        && response.pointer("/error/code") == Some(&json!(code::INVALID_PARAMS))
        && response.pointer("/error/data").is_none()
        && let Some(uri) = params.get("uri")
    {
        response["error"]["data"] = json!({ "uri": uri });
    } else if response.pointer("/error/code") == Some(&json!(code::MISSING_CLIENT_CAPABILITY))
        && response.pointer("/error/data").is_none()
    {
        // The gateway answers this only for the tasks extension (`super::task_handles`, and a
        // server's answer to a call made without it, `super::agent_call`); the error names it
        // (SEP-2575, "Missing Required Capabilities").
        response["error"]["data"] = json!({
            "requiredCapabilities": { "extensions": { gatehouse_mcp::era::TASKS_EXTENSION: {} } },
        });
    }
    response
}

/// The `server/discover` result (server/discover): the versions, what the gateway serves, who
/// it is, and the combined instructions the `initialize` result carries.
async fn discover(host: &Host, served: &Served) -> Value {
    let instructions = handshake::combined(&handshake::servers_instructions(host, served).await);
    json!({
        "supportedVersions": VERSIONS,
        "capabilities": {
            "tools": { "listChanged": true },
            "prompts": { "listChanged": true },
            "resources": { "listChanged": true, "subscribe": true },
            "completions": {},
            // Served for the servers that make tasks (`super::task_handles`).
            "extensions": { gatehouse_mcp::era::TASKS_EXTENSION: {} },
        },
        "instructions": instructions,
    })
}

/// A modern result: `resultType` (changelog, major change 8), the gateway's `serverInfo` in
/// `_meta`, and cache hints where the era wants them. The lists are the client's own (its
/// profile) and change with the person's servers at any time, so they are `private` and fresh
/// for no time; `subscriptions/listen` tells the client when they change.
pub fn after(method: &str, mut result: Value) -> Value {
    let Some(fields) = result.as_object_mut() else {
        return result;
    };
    fields
        .entry("resultType")
        .or_insert_with(|| json!("complete"));
    let meta = fields.entry("_meta").or_insert_with(|| json!({}));
    if let Some(meta) = meta.as_object_mut() {
        meta.insert(META_SERVER_INFO.to_owned(), server_info());
    }
    if CACHEABLE.contains(&method) && fields.get("resultType") == Some(&json!("complete")) {
        fields.insert("ttlMs".to_owned(), json!(0));
        fields.insert("cacheScope".to_owned(), json!("private"));
    }
    result
}

/// Who the gateway is.
pub fn server_info() -> Value {
    json!({ "name": "gatehouse", "version": env!("CARGO_PKG_VERSION") })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(fields: Value) -> Value {
        json!({ "_meta": fields })
    }

    fn good() -> Value {
        json!({
            META_PROTOCOL_VERSION: "2026-07-28",
            META_CLIENT_CAPABILITIES: { "elicitation": {} },
            META_CLIENT_INFO: { "name": "agent", "version": "1.0", "extra": "dropped" },
        })
    }

    #[test]
    fn a_well_formed_meta_is_read_with_its_client_info_and_capabilities() {
        let read = request_meta(&meta(good())).expect("as the test wrote it");
        assert_eq!(read.version, "2026-07-28");
        assert!(read.capabilities.contains_key("elicitation"));
        assert_eq!(
            read.client_info,
            Some(json!({ "name": "agent", "version": "1.0" }))
        );
        assert_eq!(read.log_level, None);
        let mut without_info = good();
        without_info
            .as_object_mut()
            .expect("as the test wrote it")
            .remove(META_CLIENT_INFO);
        assert_eq!(
            request_meta(&meta(without_info))
                .expect("as the test wrote it")
                .client_info,
            None,
            "clientInfo is a SHOULD, never required"
        );
    }

    #[test]
    fn missing_or_garbled_meta_is_invalid_params_naming_what_is_wrong() {
        let cases = [
            (json!({}), "_meta"),
            (json!(null), "_meta"),
            (json!({ "_meta": "x" }), "not an object"),
            (
                meta(json!({ META_CLIENT_CAPABILITIES: {} })),
                META_PROTOCOL_VERSION,
            ),
            (
                meta(json!({ META_PROTOCOL_VERSION: "2026-07-28" })),
                META_CLIENT_CAPABILITIES,
            ),
            (
                meta(json!({ META_PROTOCOL_VERSION: 7, META_CLIENT_CAPABILITIES: {} })),
                "not a string",
            ),
            (
                meta(json!({ META_PROTOCOL_VERSION: "2026-07-28", META_CLIENT_CAPABILITIES: [] })),
                "not an object",
            ),
            (
                meta(json!({
                    META_PROTOCOL_VERSION: "2026-07-28", META_CLIENT_CAPABILITIES: {},
                    META_CLIENT_INFO: "me",
                })),
                META_CLIENT_INFO,
            ),
            (
                meta(json!({
                    META_PROTOCOL_VERSION: "2026-07-28", META_CLIENT_CAPABILITIES: {},
                    META_LOG_LEVEL: "loud",
                })),
                "log level",
            ),
        ];
        for (params, says) in cases {
            let refused = request_meta(&params).expect_err("refused");
            assert_eq!(refused.code, code::INVALID_PARAMS, "{params}");
            assert!(
                refused.message.contains(says),
                "{params}: {}",
                refused.message
            );
        }
    }

    #[test]
    fn an_unsupported_version_lists_the_supported_and_echoes_a_clipped_request() {
        let mut old = good();
        old[META_PROTOCOL_VERSION] = json!("2025-11-25");
        let refused = request_meta(&meta(old)).expect_err("refused");
        assert_eq!(refused.code, code::UNSUPPORTED_PROTOCOL_VERSION);
        assert_eq!(
            refused.data,
            Some(json!({ "supported": ["2026-07-28"], "requested": "2025-11-25" }))
        );
        let mut huge = good();
        huge[META_PROTOCOL_VERSION] = json!("9".repeat(1 << 20));
        let refused = request_meta(&meta(huge)).expect_err("refused");
        let echoed = refused.data.expect("as the test wrote it")["requested"]
            .as_str()
            .expect("as the test wrote it")
            .len();
        assert_eq!(echoed, MAX_ECHOED);
    }

    #[test]
    fn a_request_is_modern_by_its_meta_or_by_asking_discover() {
        assert!(is_modern(&json!({ "method": "server/discover" })));
        assert!(is_modern(
            &json!({ "method": "tools/list", "params": meta(good()) })
        ));
        assert!(!is_modern(&json!({ "method": "tools/list", "params": {} })));
        assert!(!is_modern(
            &json!({ "method": "initialize", "params": { "_meta": 3 } })
        ));
    }

    #[test]
    fn a_resource_not_found_names_its_uri_and_other_errors_stay() {
        let params = json!({ "uri": "test://gone" });
        let not_found = json!({ "id": 1, "error": { "code": -32602, "message": "no such" } });
        let told = respond("resources/read", &params, not_found);
        assert_eq!(told["error"]["data"], json!({ "uri": "test://gone" }));
        let denied = json!({ "id": 1, "error": { "code": -32603, "message": "denied" } });
        assert!(
            respond("resources/read", &params, denied)["error"]
                .get("data")
                .is_none()
        );
        let read = respond("resources/read", &params, json!({ "id": 1, "result": {} }));
        assert_eq!(read["result"]["cacheScope"], "private");
    }

    #[test]
    fn results_say_complete_and_who_answered_and_lists_carry_cache_hints() {
        let listed = after("tools/list", json!({ "tools": [], "_meta": { "k": 1 } }));
        assert_eq!(listed["resultType"], "complete");
        assert_eq!(listed["ttlMs"], 0);
        assert_eq!(listed["cacheScope"], "private");
        assert_eq!(listed["_meta"]["k"], 1);
        assert_eq!(listed["_meta"][META_SERVER_INFO]["name"], "gatehouse");
        let called = after("tools/call", json!({ "content": [] }));
        assert_eq!(called["resultType"], "complete");
        assert!(called.get("ttlMs").is_none());
        let pending = after("resources/read", json!({ "resultType": "input_required" }));
        assert!(
            pending.get("ttlMs").is_none(),
            "interim results are not cacheable"
        );
    }
}
