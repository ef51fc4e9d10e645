//! 2026-07-28 change notifications and logging against the Python SDK fixture in its `--extras`
//! mode (tests/fixtures/python/server.py), over stdio and Streamable HTTP: a subscription carries
//! a tool-list change and a resource update, the server's graceful close of the subscription is
//! told apart from a broken stream, a [`Listener`] reopens it, and the per-request `logLevel`
//! filters the server's log messages.

mod support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use gatehouse_mcp::peer::Handler;
use gatehouse_mcp::{
    CallOptions, Client, ClientOptions, Era, HttpMode, Listener, ListenerEvent, LogLevel,
    NotificationFilter, StdioConfig, Subscription, SubscriptionEvent,
};
use serde_json::{Value, json};
use support::{HttpServer, python_fixture, text};

/// Keeps the log messages that reach the handler.
#[derive(Default)]
struct Logs(Mutex<Vec<Value>>);

impl Handler for Logs {
    fn on_notification(&self, method: &str, params: Option<Value>) {
        if method == "notifications/message" {
            self.0
                .lock()
                .expect("lock")
                .push(params.unwrap_or_default());
        }
    }
}

async fn next_event(subscription: &mut Subscription) -> SubscriptionEvent {
    tokio::time::timeout(Duration::from_secs(10), subscription.next())
        .await
        .expect("the subscription delivers")
}

async fn call(client: &Client, tool: &str, arguments: Value) -> String {
    let result = client
        .call_tool(tool, Some(arguments), CallOptions::default())
        .await
        .unwrap_or_else(|e| panic!("tools/call {tool}: {e}"));
    assert!(!result.is_error, "{tool}: {}", text(&result));
    text(&result)
}

async fn exercise(client: Client, logs: &Logs) {
    assert_eq!(client.era(), Era::Modern, "{}", client.era_reason());
    let wanted = NotificationFilter::all_lists(vec!["fixture://counter".into()]);
    let mut subscription = client.listen(&wanted).await.expect("subscriptions/listen");
    assert_eq!(
        subscription.acknowledged(),
        &wanted,
        "the SDK takes all of it"
    );

    call(&client, "add_tool", json!({"name": "zeta"})).await;
    match next_event(&mut subscription).await {
        SubscriptionEvent::Notification { method, .. } => {
            assert_eq!(method, "notifications/tools/list_changed")
        }
        other => panic!("a list change: {other:?}"),
    }
    let tools = client.list_tools().await.expect("tools/list");
    assert!(tools.items.iter().any(|t| t.name == "zeta"));
    assert_eq!(call(&client, "zeta", json!({})).await, "dynamic tool zeta");

    call(&client, "bump_counter", json!({})).await;
    match next_event(&mut subscription).await {
        SubscriptionEvent::Notification { method, params } => {
            assert_eq!(method, "notifications/resources/updated");
            assert_eq!(params.unwrap_or_default()["uri"], "fixture://counter");
        }
        other => panic!("a resource update: {other:?}"),
    }

    // The server ends the subscription with a result: a graceful end, not a broken stream.
    call(&client, "close_subscriptions", json!({})).await;
    match next_event(&mut subscription).await {
        SubscriptionEvent::Ended { graceful, .. } => assert!(graceful, "closed with a result"),
        other => panic!("the end: {other:?}"),
    }

    // A listener opens it again after such an end.
    let mut listener = Listener::new(NotificationFilter::all_lists(Vec::new()));
    assert!(matches!(
        listener.next(&client).await,
        ListenerEvent::Opened(_)
    ));
    call(&client, "close_subscriptions", json!({})).await;
    let lost = tokio::time::timeout(Duration::from_secs(10), listener.next(&client))
        .await
        .expect("the end is noticed");
    assert!(matches!(lost, ListenerEvent::Lost { .. }), "{lost:?}");
    let reopened = tokio::time::timeout(Duration::from_secs(10), listener.next(&client))
        .await
        .expect("reopened");
    assert!(matches!(reopened, ListenerEvent::Opened(_)), "{reopened:?}");

    // logLevel warning: the five levels from warning up, none below.
    client
        .set_log_level(LogLevel::Warning)
        .await
        .expect("logging is advertised");
    call(&client, "log_all", json!({"message": "m"})).await;
    let levels: Vec<String> = std::mem::take(&mut *logs.0.lock().expect("lock"))
        .iter()
        .map(|p| p["level"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(
        levels,
        ["warning", "error", "critical", "alert", "emergency"]
    );
    client.close().await.expect("close");
}

#[tokio::test]
async fn python_subscriptions_and_logging_over_stdio() {
    let (python, script) = python_fixture();
    let mut config = StdioConfig::new(python);
    config.args = vec![script, "stdio".into(), "--extras".into()];
    let logs = Arc::new(Logs::default());
    let client = Client::connect_stdio(&config, ClientOptions::default(), logs.clone())
        .await
        .expect("connect");
    exercise(client, &logs).await;
}

#[tokio::test]
async fn python_subscriptions_and_logging_over_streamable_http() {
    let server = HttpServer::python_with("streamable-http", &["--extras"]).await;
    let logs = Arc::new(Logs::default());
    let client = Client::connect_http(
        &server.config("/mcp"),
        HttpMode::Auto,
        ClientOptions::default(),
        logs.clone(),
    )
    .await
    .expect("connect");
    exercise(client, &logs).await;
}
