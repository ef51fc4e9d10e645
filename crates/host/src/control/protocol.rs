//! The control socket's protocol, version [`PROTOCOL_VERSION`]: JSON-RPC 2.0 messages, one per
//! line ([`super::framing`]). A face sends [`Request`]s (each with an `id`) and the `cancel`
//! notification; the engine answers each request with a result (the reply type named on each
//! variant) or an error whose `data.code` is the typed [`ErrorCode`], and sends [`Notice`]s
//! tagged with the request they belong to. The first request must be `hello`, with the version;
//! anything else first, a different version, malformed JSON, an unknown method or a line over
//! [`MAX_MESSAGE_BYTES`] is answered with an error and the connection closed.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::connections::watching::WatchEvent;
use crate::control::answers::CompletionAsk;
use crate::control::lock::EngineInfo;
pub use crate::error_code::ErrorCode;
use crate::oversight::approvals::Answer;
use crate::sessions::status::ServerStatus;
use crate::vocabulary::approval::PendingApproval;

/// The protocol's version; both sides check it in `hello`.
pub const PROTOCOL_VERSION: u32 = 1;
/// The longest message either side accepts, in bytes (one line).
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;
/// Requests one connection may have running at once.
pub const MAX_IN_FLIGHT: usize = 32;
/// Connections the engine serves at once.
pub const MAX_CONNECTIONS: usize = 128;
/// Messages queued for one face; a face that does not read them is disconnected.
pub const OUTGOING_QUEUE: usize = 256;
/// Bytes queued for one face (counted when a message is queued, released once it is written);
/// a face that lets more wait is disconnected. A single message longer than this (up to
/// [`MAX_MESSAGE_BYTES`]) is taken only when nothing else waits.
pub const OUTGOING_BYTES: usize = 8 * 1024 * 1024;

/// A face's requests, as `method` and `params`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "method", content = "params", rename_all = "camelCase")]
pub enum Request {
    /// The first request: replies [`EngineInfo`].
    Hello(Hello),
    /// Replies [`EngineStatus`].
    Status(NoParams),
    /// Replies [`crate::control::answers::ToolListing`].
    ListTools(OnServer),
    /// Replies [`CallReply`]; progress comes as [`Notice::Progress`].
    CallTool(CallParams),
    /// Replies [`crate::control::answers::Pong`].
    Ping(OnServer),
    /// Replies [`crate::control::answers::ServerFacts`].
    Info(OnServer),
    /// Replies [`crate::control::answers::Listed`] of resources.
    ListResources(OnServer),
    /// Replies [`crate::control::answers::Listed`] of resource templates.
    ListTemplates(OnServer),
    /// Replies [`crate::control::answers::Listed`] of prompts.
    ListPrompts(OnServer),
    /// Replies [`crate::control::answers::ReadReply`].
    ReadResource(ReadParams),
    /// Replies [`crate::control::answers::PromptReply`].
    GetPrompt(PromptParams),
    /// Replies [`crate::control::answers::CompletionReply`].
    Complete(CompleteParams),
    /// Replies [`TaskListing`] (from the task log; no request reaches the server).
    ListTasks(OnServer),
    /// Streams [`Notice::Watched`] for the server's change notifications (and the updates of
    /// `resources`) until cancelled, then replies `null`; an error when the watch cannot go on.
    Watch(WatchParams),
    /// Replies `Vec<PendingApproval>`.
    ListApprovals(NoParams),
    /// Replies `null`.
    AnswerApproval(AnswerParams),
    /// Replies `null` at once, then streams [`Notice::ApprovalAsked`] (the pending ones first),
    /// [`Notice::ApprovalAnswered`] and [`Notice::ApprovalWithdrawn`] until cancelled.
    WatchApprovals(NoParams),
    /// Replies [`AgentsPauseState`]: whether the agents are paused.
    AgentsPaused(NoParams),
    /// Pauses or resumes every agent (on the audit log as the person's); replies
    /// [`AgentsPauseState`].
    SetAgentsPaused(PauseParams),
    /// Replies `null`, and from then on the connection carries an agent's MCP session with the
    /// gateway ([`crate::gateway::session`]), one JSON-RPC message per line each way. Only as
    /// the first request after `hello`.
    Gateway(GatewayParams),
}

impl Request {
    pub fn method(&self) -> &'static str {
        match self {
            Request::Hello(_) => "hello",
            Request::Status(_) => "status",
            Request::ListTools(_) => "listTools",
            Request::CallTool(_) => "callTool",
            Request::Ping(_) => "ping",
            Request::Info(_) => "info",
            Request::ListResources(_) => "listResources",
            Request::ListTemplates(_) => "listTemplates",
            Request::ListPrompts(_) => "listPrompts",
            Request::ReadResource(_) => "readResource",
            Request::GetPrompt(_) => "getPrompt",
            Request::Complete(_) => "complete",
            Request::ListTasks(_) => "listTasks",
            Request::Watch(_) => "watch",
            Request::ListApprovals(_) => "listApprovals",
            Request::AnswerApproval(_) => "answerApproval",
            Request::WatchApprovals(_) => "watchApprovals",
            Request::AgentsPaused(_) => "agentsPaused",
            Request::SetAgentsPaused(_) => "setAgentsPaused",
            Request::Gateway(_) => "gateway",
        }
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct NoParams {}

/// Which face is attaching.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaceKind {
    Cli,
    Gateway,
}

impl FaceKind {
    pub fn as_str(self) -> &'static str {
        match self {
            FaceKind::Cli => "cli",
            FaceKind::Gateway => "gateway",
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Hello {
    pub version: u32,
    pub face: FaceKind,
    pub name: String,
    pub pid: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct OnServer {
    pub server: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallParams {
    pub server: String,
    pub tool: String,
    pub arguments: Option<Map<String, Value>>,
    /// Time allowed between progress updates; none is the engine's default (60 s).
    pub timeout_ms: Option<u64>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReadParams {
    pub server: String,
    pub uri: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PromptParams {
    pub server: String,
    pub name: String,
    #[serde(default)]
    pub arguments: BTreeMap<String, String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CompleteParams {
    pub server: String,
    #[serde(flatten)]
    pub ask: CompletionAsk,
}

/// The agent a gateway connection serves.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GatewayParams {
    /// The client's name, as the person knows it (`gatehouse mcp --client NAME`).
    pub client: String,
    /// The face offers to hand over the agent's own stdin and stdout ([`super::handoff`]): the
    /// engine then reads and answers the agent on them, and the connection only says when the
    /// session ends ([`Notice::GatewayEnded`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stdio: bool,
}

/// The engine's answer to `gateway`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct GatewayReply {
    /// The engine takes the agent's stdio: the face sends it next.
    #[serde(default)]
    pub stdio: bool,
}

/// Why an agent's session whose stdio the engine took ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum GatewayEnd {
    /// The agent closed its stdin, or went away.
    AgentClosed,
    /// The engine is stopping.
    EngineStopping,
    /// The stdio handed over could not be used.
    Refused,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WatchParams {
    pub server: String,
    /// Resources whose updates are watched too.
    #[serde(default)]
    pub resources: Vec<String>,
}

/// The tasks a server ran, newest first, as the task log holds them.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TaskListing {
    pub server: String,
    pub tasks: Vec<crate::TaskRecord>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AnswerParams {
    pub id: String,
    pub answer: Answer,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PauseParams {
    pub paused: bool,
}

/// Whether the agents are paused, and whether the request changed it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentsPauseState {
    pub paused: bool,
    pub changed: bool,
}

/// `cancel {id}`: the face gives up on its request `id`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CancelParams {
    pub id: u64,
}

/// A tool call's outcome: what `gatehouse call --json` prints (a cancelled call is the error `cancelled`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallReply {
    pub server: String,
    pub tool: String,
    pub content: Vec<Value>,
    pub structured_content: Option<Value>,
    pub is_error: bool,
    pub schema_problem: Option<String>,
}

/// `status`: the engine, its servers and the faces attached.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EngineStatus {
    pub engine: EngineInfo,
    pub servers: Vec<ServerState>,
    pub faces: Vec<FaceInfo>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ServerState {
    pub name: String,
    pub id: String,
    pub status: ServerStatus,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FaceInfo {
    pub face: FaceKind,
    pub name: String,
    pub pid: u32,
    /// The uid the socket vouched for.
    pub uid: u32,
    pub since: String,
}

/// What the engine sends unasked, tagged with the face's request it belongs to.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "method", content = "params", rename_all = "camelCase")]
pub enum Notice {
    #[serde(rename_all = "camelCase")]
    Progress {
        request: u64,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    },
    ApprovalAsked {
        request: u64,
        approval: Box<PendingApproval>,
    },
    ApprovalAnswered {
        request: u64,
        id: String,
        answer: String,
    },
    ApprovalWithdrawn {
        request: u64,
        id: String,
        reason: String,
    },
    /// What a watch saw.
    Watched { request: u64, event: WatchEvent },
    /// An agent's session on the stdio it handed over ended (the request is `gateway`'s).
    GatewayEnded {
        request: u64,
        reason: GatewayEnd,
        message: String,
    },
}

impl Notice {
    /// The request the notice belongs to.
    pub fn request(&self) -> u64 {
        match self {
            Notice::Progress { request, .. }
            | Notice::ApprovalAsked { request, .. }
            | Notice::ApprovalAnswered { request, .. }
            | Notice::ApprovalWithdrawn { request, .. }
            | Notice::Watched { request, .. }
            | Notice::GatewayEnded { request, .. } => *request,
        }
    }
}

/// A JSON-RPC error object's `data`: the typed code.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ErrorData {
    pub code: ErrorCode,
}

/// JSON-RPC error numbers.
pub mod rpc_code {
    pub const PARSE_ERROR: i64 = -32700;
    pub const INVALID_REQUEST: i64 = -32600;
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// Any error of the engine (its typed code in `data.code`).
    pub const ENGINE_ERROR: i64 = -32000;
}

/// A JSON-RPC error reply for request `id` (`null` when it has none).
pub fn error_reply(id: Option<u64>, rpc: i64, code: ErrorCode, message: &str) -> Value {
    serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": { "code": rpc, "message": message, "data": ErrorData { code } },
    })
}

/// A JSON-RPC result reply.
pub fn result_reply(id: u64, result: Value) -> Value {
    serde_json::json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

/// A message from a face, read from one line.
#[derive(Debug)]
pub enum Incoming {
    Request { id: u64, request: Request },
    Cancel(u64),
}

/// Why a line is not a message: the error to reply, for the id if one could be read.
#[derive(Debug)]
pub struct Refusal {
    pub id: Option<u64>,
    pub rpc: i64,
    pub message: String,
}

/// Parses one line from a face.
pub fn parse_incoming(line: &[u8]) -> Result<Incoming, Refusal> {
    let refuse = |id, rpc, message: String| Refusal { id, rpc, message };
    let value: Value = serde_json::from_slice(line).map_err(|e| {
        refuse(
            None,
            rpc_code::PARSE_ERROR,
            format!("malformed JSON message: {e}"),
        )
    })?;
    let Value::Object(mut message) = value else {
        return Err(refuse(
            None,
            rpc_code::INVALID_REQUEST,
            "a message must be a JSON object".into(),
        ));
    };
    let id = message.get("id").and_then(Value::as_u64);
    if message.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(refuse(
            id,
            rpc_code::INVALID_REQUEST,
            "a message must be JSON-RPC 2.0 (`\"jsonrpc\": \"2.0\"`)".into(),
        ));
    }
    let method = match message.remove("method") {
        Some(Value::String(method)) => method,
        _ => {
            return Err(refuse(
                id,
                rpc_code::INVALID_REQUEST,
                "a message must name its method".into(),
            ));
        }
    };
    let params = message
        .remove("params")
        .unwrap_or_else(|| Value::Object(Map::new()));
    if method == "cancel" {
        let cancel: CancelParams = serde_json::from_value(params)
            .map_err(|e| refuse(None, rpc_code::INVALID_REQUEST, format!("bad cancel: {e}")))?;
        return Ok(Incoming::Cancel(cancel.id));
    }
    let Some(id) = id else {
        return Err(refuse(
            None,
            rpc_code::INVALID_REQUEST,
            format!("the request `{method}` has no numeric id"),
        ));
    };
    let tagged = serde_json::json!({ "method": method, "params": params });
    match serde_json::from_value::<Request>(tagged) {
        Ok(request) => Ok(Incoming::Request { id, request }),
        Err(e) if e.to_string().contains("unknown variant") => Err(refuse(
            Some(id),
            rpc_code::METHOD_NOT_FOUND,
            format!("unknown method `{method}`"),
        )),
        Err(e) => Err(refuse(
            Some(id),
            rpc_code::INVALID_REQUEST,
            format!("bad parameters for `{method}`: {e}"),
        )),
    }
}

/// The request as it goes on the wire.
pub fn request_message(id: u64, request: &Request) -> Result<Value, serde_json::Error> {
    let mut value = serde_json::to_value(request)?;
    if let Value::Object(map) = &mut value {
        map.insert("jsonrpc".into(), Value::from("2.0"));
        map.insert("id".into(), Value::from(id));
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_goes_out_and_comes_back_the_same() {
        let request = Request::ListTools(OnServer { server: "e".into() });
        let line = serde_json::to_vec(&request_message(7, &request).expect("json")).expect("v");
        match parse_incoming(&line) {
            Ok(Incoming::Request {
                id: 7,
                request: Request::ListTools(on),
            }) => {
                assert_eq!(on.server, "e");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn refuses_what_is_not_a_request() {
        for (line, rpc) in [
            (&b"{not json"[..], rpc_code::PARSE_ERROR),
            (b"[1]", rpc_code::INVALID_REQUEST),
            (br#"{"id":1,"method":"status"}"#, rpc_code::INVALID_REQUEST),
            (
                br#"{"jsonrpc":"2.0","id":1,"method":"rm"}"#,
                rpc_code::METHOD_NOT_FOUND,
            ),
            (
                br#"{"jsonrpc":"2.0","method":"status"}"#,
                rpc_code::INVALID_REQUEST,
            ),
        ] {
            let refused = parse_incoming(line).expect_err("refused");
            assert_eq!(refused.rpc, rpc, "{}", String::from_utf8_lossy(line));
        }
    }
}
