//! Calling tools through the gate in the host's integration tests: a connection whose server
//! requests the host's handler answers, an `echo` call from a source and caller, the text a call
//! returned, the audit rows of a tool's calls, and a rule on one tool.

use std::sync::Arc;

use gatehouse_host::policy::{Effect, Rule};
use gatehouse_host::server_requests::HostHandler;
use gatehouse_host::{
    AuditFilter, AuditRow, CallOutcome, Host, ServerConnection, Source, ToolCall,
};
use gatehouse_mcp::CallOptions;

/// A connection to the registered server `name`, its requests answered by the host's handler.
pub async fn connect(host: &Host, name: &str) -> ServerConnection {
    host.connect(name, |config| Arc::new(HostHandler::for_config(config)))
        .await
        .expect("connect")
}

/// A connection to server-everything over stdio, registered as `everything` if it is not yet.
pub async fn connect_everything(host: &Host) -> ServerConnection {
    if host.registry().get("everything").await.is_err() {
        host.add_server(super::everything("everything"))
            .await
            .expect("add");
    }
    connect(host, "everything").await
}

/// The text of a call's first content block.
pub fn first_text(outcome: CallOutcome) -> String {
    let CallOutcome::Done(result) = outcome else {
        panic!("the call was not cancelled");
    };
    result
        .content
        .first()
        .and_then(|c| c.as_text())
        .unwrap_or_default()
        .to_owned()
}

/// The audit rows of the calls of `tool`, oldest first.
pub async fn audited(host: &Host, tool: &str) -> Vec<AuditRow> {
    let filter = AuditFilter {
        tool: Some(tool.into()),
        ..AuditFilter::default()
    };
    let mut rows = host.audit().list(&filter).await.expect("list");
    rows.reverse();
    rows
}

/// A rule with `effect` on `tool` of the server `server_id`, for every source and every
/// definition of the tool (set the other fields with `..tool_rule(…)`).
pub fn tool_rule(server_id: &str, tool: &str, effect: Effect) -> Rule {
    Rule {
        id: String::new(),
        server: Some(server_id.to_owned()),
        tool: Some(tool.to_owned()),
        argument: None,
        effect,
        definition_hash: None,
        source: None,
        client: None,
    }
}

/// `echo {message}` from `caller` of `source` (an app view, a gateway client, or none); the
/// echoed text, or the refusal.
pub async fn echo_as(
    connection: &ServerConnection,
    source: Source,
    caller: Option<&str>,
    message: &str,
) -> gatehouse_host::Result<String> {
    let call = ToolCall {
        tool: "echo".into(),
        arguments: Some(serde_json::json!({ "message": message })),
        source,
        caller: caller.map(str::to_owned),
    };
    connection
        .call_tool(call, CallOptions::default(), std::future::pending())
        .await
        .map(first_text)
}
