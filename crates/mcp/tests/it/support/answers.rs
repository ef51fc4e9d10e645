//! A handler that answers like a person at the keyboard (every elicitation accepted with a
//! fixed answer) and remembers what it was asked and told, and the calls the interop tests make
//! against the SDK fixtures: a tool call that must succeed, `count` with its progress, and the
//! check that a dropped `count` call is cancelled on the server (both fixtures count cancellations in their `stats` tool).

use std::sync::Mutex;
use std::time::Duration;

use gatehouse_mcp::error::RpcError;
use gatehouse_mcp::peer::Handler;
use gatehouse_mcp::transport::BoxFuture;
use gatehouse_mcp::{CallOptions, Client, ClientOptions, Progress};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::text;

/// Accepts every elicitation with `content`; refuses other requests. Keeps each request as
/// `{"method", "params"}` and each notification that is not routed elsewhere.
pub struct Answers {
    content: Value,
    asked: Mutex<Vec<Value>>,
    told: Mutex<Vec<(String, Value)>>,
}

impl Answers {
    /// A handler that accepts elicitations with `content`.
    pub fn accepting(content: Value) -> Self {
        Self {
            content,
            asked: Mutex::default(),
            told: Mutex::default(),
        }
    }

    /// The requests asked since the last call, oldest first.
    pub fn take_asked(&self) -> Vec<Value> {
        std::mem::take(&mut *self.asked.lock().expect("lock"))
    }

    /// The notifications received since the last call, oldest first.
    pub fn take_told(&self) -> Vec<(String, Value)> {
        std::mem::take(&mut *self.told.lock().expect("lock"))
    }

    /// The params of the `notifications/message` received since the last call.
    pub fn take_logs(&self) -> Vec<Value> {
        self.take_told()
            .into_iter()
            .filter(|(method, _)| method == "notifications/message")
            .map(|(_, params)| params)
            .collect()
    }
}

impl Handler for Answers {
    fn on_request(
        &self,
        method: String,
        params: Option<Value>,
    ) -> BoxFuture<'static, Result<Value, RpcError>> {
        self.asked
            .lock()
            .expect("lock")
            .push(json!({"method": method, "params": params}));
        let content = self.content.clone();
        Box::pin(async move {
            match method.as_str() {
                "elicitation/create" => Ok(json!({"action": "accept", "content": content})),
                other => Err(RpcError {
                    code: -32601,
                    message: format!("method not found: {other}"),
                    data: None,
                }),
            }
        })
    }

    fn on_notification(&self, method: &str, params: Option<Value>) {
        self.told
            .lock()
            .expect("lock")
            .push((method.to_owned(), params.unwrap_or_default()));
    }
}

/// Client options that declare form elicitation, which [`Answers`] answers.
pub fn with_form_elicitation() -> ClientOptions {
    let mut options = ClientOptions::default();
    options
        .capabilities
        .insert("elicitation".into(), json!({"form": {}}));
    options
}

/// Calls a tool that must succeed, and returns the text of its result.
pub async fn call_ok(client: &Client, tool: &str, arguments: Value) -> String {
    let result = client
        .call_tool(tool, Some(arguments), CallOptions::default())
        .await
        .unwrap_or_else(|e| panic!("tools/call {tool}: {e}"));
    assert!(!result.is_error, "{tool}: {}", text(&result));
    text(&result)
}

/// Runs the fixture's `count` tool with `arguments` and returns its text and every progress
/// update it reported, in order.
pub async fn count_with_progress(client: &Client, arguments: Value) -> (String, Vec<Progress>) {
    let (tx, mut rx) = mpsc::channel(gatehouse_mcp::updates::UPDATE_BUFFER);
    let counted = client
        .call_tool(
            "count",
            Some(arguments),
            CallOptions {
                progress: Some(tx),
                ..CallOptions::default()
            },
        )
        .await
        .expect("tools/call count");
    let mut updates = Vec::new();
    while let Ok(update) = rx.try_recv() {
        updates.push(update);
    }
    (text(&counted), updates)
}

/// How many `count` calls the server saw cancelled, from its `stats` tool.
pub async fn cancelled_count(client: &Client) -> i64 {
    let stats = client
        .call_tool("stats", None, CallOptions::default())
        .await
        .expect("tools/call stats");
    assert_eq!(stats.schema_problem, None);
    stats
        .structured_content
        .and_then(|s| s.get("cancelled").and_then(Value::as_i64))
        .expect("stats reports cancellations")
}

/// Starts a minute-long `count` with `arguments`, drops it once it reports progress, and checks
/// that the server saw exactly that call cancelled.
pub async fn assert_a_dropped_call_is_cancelled(client: &Client, arguments: Value, what: &str) {
    let before = cancelled_count(client).await;
    let (tx, mut rx) = mpsc::channel(gatehouse_mcp::updates::UPDATE_BUFFER);
    let mut long = Box::pin(client.call_tool(
        "count",
        Some(arguments),
        CallOptions {
            progress: Some(tx),
            ..CallOptions::default()
        },
    ));
    tokio::select! {
        result = &mut long => panic!("a minute-long call finished early: {result:?}"),
        update = rx.recv() => assert!(update.is_some(), "the long call reports progress"),
    }
    drop(long);
    let step = format!("the server sees the dropped call cancelled ({what})");
    let seen = super::wait::until(&step, Duration::from_secs(5), || async {
        let seen = cancelled_count(client).await;
        if seen > before { Ok(seen) } else { Err(seen) }
    })
    .await;
    assert_eq!(
        seen,
        before + 1,
        "the server saw the dropped call cancelled ({what})"
    );
}
