//! What the host answers when a server asks something of it (2025-11-25 client features):
//! `roots/list` gets the server's configured roots that may be given now, each checked as it is
//! given ([`crate::roots::expose`]; 2025-11-25 client/roots, "Security Considerations"). Sampling
//! and elicitation are put to the person by the gate ([`crate::oversight::gate::person`]) before
//! they reach this handler; should one reach it (a connection opened without the gate), it is
//! declined. Notifications that change what the host shows are passed on.
//!
//! The roots are checked on `spawn_blocking`, and each withheld root is logged with its reason when
//! that changes. Sampling and elicitation are declared only when someone can answer them
//! (`capabilities`). `tools/list_changed` is forwarded to the session; `notifications/message`
//! (within `log_rate`) and a server's cancellation reasons are logged.
//!
//! The roots are shared with the session, so a roots-only edit updates them in place and the
//! session sends `notifications/roots/list_changed` instead of restarting: to a legacy server only
//! (2026-07-28 removed it; a modern server gets the new roots when it next asks), and only when
//! what it would be given changed (the slot's `RootWatch` decides).

use gatehouse_mcp::error::RpcError;
use gatehouse_mcp::jsonrpc::codes;
use gatehouse_mcp::peer::Handler;
use gatehouse_mcp::transport::BoxFuture;
use serde_json::{Map, Value, json};

use crate::connections::watching::Watchers;
use crate::roots::{self, Exposure, Withheld};
use crate::running::log_rate::{Admit, LogRate, PER_WINDOW};
use crate::running::notice_queue::NoticeSender;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// A server's roots as `file://` URIs, shared with its session so edits apply at once.
pub type SharedRoots = std::sync::Arc<std::sync::RwLock<Vec<String>>>;

/// Something a server told the host that the session must act on.
#[derive(Debug, Clone, PartialEq)]
pub enum ServerNotice {
    /// `notifications/tools/list_changed`: the tool list must be fetched again.
    ToolsChanged,
    /// The tool list is past its `ttlMs`: fetch it again (from the cache while still fresh).
    ToolsStale,
    /// What the server may be given as roots changed (an edit, or a root that appeared,
    /// changed or disappeared): a legacy server must be told.
    RootsChanged,
}

/// The host's answers to one server's requests.
#[derive(Debug)]
pub struct HostHandler {
    server: String,
    roots: SharedRoots,
    notices: Option<NoticeSender<ServerNotice>>,
    /// Whoever watches the server's change notifications (`gatehouse watch`).
    watchers: Option<Watchers>,
    /// Bounds how fast the server's log messages reach Gatehouse's log.
    log_rate: std::sync::Mutex<LogRate>,
    /// The roots withheld at the last `roots/list`, so that each change is logged once.
    withheld: Arc<Mutex<Vec<Withheld>>>,
}

impl HostHandler {
    /// A handler for `server` answering with `roots`; notices go to `notices` when given.
    pub fn new(
        server: impl Into<String>,
        roots: SharedRoots,
        notices: Option<NoticeSender<ServerNotice>>,
    ) -> Self {
        Self {
            server: server.into(),
            roots,
            notices,
            watchers: None,
            log_rate: std::sync::Mutex::new(LogRate::new(Instant::now())),
            withheld: Arc::default(),
        }
    }

    /// The same, offering the server's change notifications to `watchers` too.
    pub fn with_watchers(mut self, watchers: Watchers) -> Self {
        self.watchers = Some(watchers);
        self
    }

    /// A handler for a one-off connection: the config's roots, no notices.
    pub fn for_config(config: &crate::store::registry::model::ServerConfig) -> Self {
        let roots = std::sync::Arc::new(std::sync::RwLock::new(config.roots.clone()));
        Self::new(config.name.clone(), roots, None)
    }

    /// The capabilities the host really answers, for `initialize` (and every modern request's
    /// `_meta`): roots always; sampling and elicitation only when a person is there to answer
    /// them, since the gate puts them to the person; the MCP Apps extension only where views
    /// are rendered (SEP-1865, "Capability Negotiation": `mimeTypes` lists what the host
    /// renders).
    pub fn capabilities(declared: Declared) -> Map<String, Value> {
        let mut capabilities = Map::new();
        capabilities.insert("roots".into(), json!({ "listChanged": true }));
        if declared.attended {
            capabilities.insert("sampling".into(), json!({}));
            capabilities.insert("elicitation".into(), json!({ "form": {}, "url": {} }));
        }
        if declared.apps {
            capabilities.insert(
                "extensions".into(),
                json!({ crate::apps::UI_EXTENSION: { "mimeTypes": [crate::apps::APP_MIME_TYPE] } }),
            );
        }
        capabilities
    }
}

/// The `roots/list` result: the configured roots that may be given now, checked off the
/// runtime's workers; each root withheld is logged with the reason when that changes.
async fn roots_result(server: &str, configured: Vec<String>, said: &Mutex<Vec<Withheld>>) -> Value {
    let exposure = tokio::task::spawn_blocking(move || roots::expose(&configured))
        .await
        .unwrap_or_else(|e| {
            tracing::warn!("checking the roots of `{server}` did not finish ({e}); none are given");
            Exposure::default()
        });
    let mut said = said
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if *said != exposure.withheld {
        for root in &exposure.withheld {
            tracing::warn!(
                "`{server}` is not given its root {}: {}",
                root.uri,
                root.why
            );
        }
        said.clone_from(&exposure.withheld);
    }
    let listed: Vec<Value> = exposure
        .listed
        .iter()
        .map(|root| json!({ "uri": root.uri, "name": root.name }))
        .collect();
    json!({ "roots": listed })
}

/// What a connection offers the server beyond roots.
#[derive(Debug, Clone, Copy, Default)]
pub struct Declared {
    /// A person answers sampling and elicitation.
    pub attended: bool,
    /// The face renders MCP Apps views (the app).
    pub apps: bool,
}

impl Handler for HostHandler {
    fn on_request(
        &self,
        method: String,
        params: Option<Value>,
    ) -> BoxFuture<'static, Result<Value, RpcError>> {
        let server = self.server.clone();
        let mode = gatehouse_mcp::features::elicitation::check_mode(params.as_ref());
        let roots = (method == "roots/list")
            .then(|| self.roots.read().map(|r| r.clone()).unwrap_or_default());
        let withheld = self.withheld.clone();
        Box::pin(async move {
            match method.as_str() {
                "roots/list" => {
                    Ok(roots_result(&server, roots.unwrap_or_default(), &withheld).await)
                }
                "elicitation/create" => {
                    mode?;
                    tracing::info!(
                        "declined an elicitation request from `{server}`: nobody can be asked"
                    );
                    Ok(json!({ "action": "decline" }))
                }
                "sampling/createMessage" => {
                    tracing::info!(
                        "declined a sampling request from `{server}`: nobody can be asked"
                    );
                    // 2025-11-25 client/sampling, "Error Handling": a refusal is an error result.
                    Err(RpcError {
                        code: -1,
                        message: "Gatehouse declined the sampling request: nobody can be asked"
                            .into(),
                        data: None,
                    })
                }
                other => Err(RpcError {
                    code: codes::METHOD_NOT_FOUND,
                    message: format!("method not found: {other}"),
                    data: None,
                }),
            }
        })
    }

    fn on_notification(&self, method: &str, params: Option<Value>) {
        if let Some(watchers) = &self.watchers {
            crate::connections::watching::offer(watchers, method, params.as_ref());
        }
        match method {
            "notifications/tools/list_changed" => {
                if let Some(notices) = &self.notices {
                    let _ = notices.send(ServerNotice::ToolsChanged);
                }
            }
            "notifications/message" => {
                let admit = self
                    .log_rate
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .admit(Instant::now());
                match admit {
                    Admit::No => return,
                    Admit::AfterDropping(dropped) => tracing::warn!(
                        target: "gatehouse::server_log",
                        "[{}] {dropped} log messages dropped: more than {PER_WINDOW} a second",
                        self.server
                    ),
                    Admit::Yes => {}
                }
                let params = params.unwrap_or_default();
                let level = params
                    .get("level")
                    .and_then(Value::as_str)
                    .unwrap_or("info");
                let data = params.get("data").map(Value::to_string).unwrap_or_default();
                tracing::info!(target: "gatehouse::server_log", "[{}] {level}: {data}", self.server);
            }
            // 2025-11-25 basic/utilities/cancellation: reasons SHOULD be logged.
            "notifications/cancelled" => {
                let params = params.unwrap_or_default();
                let id = params.get("requestId").map(ToString::to_string);
                let reason = params.get("reason").and_then(|r| r.as_str());
                tracing::info!(
                    "`{}` cancelled its request {}: {}",
                    self.server,
                    id.unwrap_or_default(),
                    reason.unwrap_or("no reason given")
                );
            }
            "notifications/elicitation/complete" => {
                let id = params
                    .as_ref()
                    .and_then(|p| p.get("elicitationId"))
                    .and_then(Value::as_str)
                    .unwrap_or("?");
                tracing::info!(
                    "`{}` finished the URL elicitation {id}; the request can be retried",
                    self.server
                );
            }
            other => tracing::debug!("`{}` sent {other}", self.server),
        }
    }
}
