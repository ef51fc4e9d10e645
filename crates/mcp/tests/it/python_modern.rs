//! The 2026-07-28 era against the Python SDK fixture in its `--extras` mode
//! (tests/fixtures/python/server.py), over stdio and Streamable HTTP: a subscription carries a
//! tool-list change and a resource update, the server's graceful close of the subscription is
//! told apart from a broken stream, a [`Listener`] reopens it, the per-request `logLevel`
//! filters the server's log messages, an MRTR elicitation round trip echoes the SDK's sealed
//! `requestState`, and progress and cancellation work.

use std::sync::Arc;
use std::time::Duration;

use crate::support::answers::{
    Answers, assert_a_dropped_call_is_cancelled, call_ok, count_with_progress,
    with_form_elicitation,
};
use crate::support::{HttpServer, python_fixture, text};
use gatehouse_mcp::{
    CallOptions, Client, Era, HttpMode, Listener, ListenerEvent, LogLevel, NotificationFilter,
    StdioConfig, Subscription, SubscriptionEvent,
};
use serde_json::json;

/// A handler that confirms whatever it is asked and keeps what it is told.
fn confirming() -> Arc<Answers> {
    Arc::new(Answers::accepting(
        json!({"confirm": true, "note": "from gatehouse"}),
    ))
}

async fn next_event(subscription: &mut Subscription) -> SubscriptionEvent {
    tokio::time::timeout(Duration::from_secs(10), subscription.next())
        .await
        .expect("the subscription delivers")
}

async fn exercise(client: Client, handler: &Answers) {
    assert_eq!(client.era(), Era::Modern, "{}", client.era_reason());
    let wanted = NotificationFilter::all_lists(vec!["fixture://counter".into()]);
    let mut subscription = client.listen(&wanted).await.expect("subscriptions/listen");
    assert_eq!(
        subscription.acknowledged(),
        &wanted,
        "the SDK takes all of it"
    );

    call_ok(&client, "add_tool", json!({"name": "zeta"})).await;
    match next_event(&mut subscription).await {
        SubscriptionEvent::Notification { method, .. } => {
            assert_eq!(method, "notifications/tools/list_changed")
        }
        other => panic!("a list change: {other:?}"),
    }
    let tools = client.list_tools().await.expect("tools/list");
    assert!(tools.items.iter().any(|t| t.name == "zeta"));
    assert_eq!(
        call_ok(&client, "zeta", json!({})).await,
        "dynamic tool zeta"
    );

    call_ok(&client, "bump_counter", json!({})).await;
    match next_event(&mut subscription).await {
        SubscriptionEvent::Notification { method, params } => {
            assert_eq!(method, "notifications/resources/updated");
            assert_eq!(params.unwrap_or_default()["uri"], "fixture://counter");
        }
        other => panic!("a resource update: {other:?}"),
    }

    // The server ends the subscription with a result: a graceful end, not a broken stream.
    call_ok(&client, "close_subscriptions", json!({})).await;
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
    call_ok(&client, "close_subscriptions", json!({})).await;
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
    call_ok(&client, "log_all", json!({"message": "m"})).await;
    let levels: Vec<String> = handler
        .take_logs()
        .iter()
        .map(|p| p["level"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(
        levels,
        ["warning", "error", "critical", "alert", "emergency"]
    );

    // MRTR: the SDK seals its requestState; the client echoes it as it came.
    let confirmed = client
        .call_tool(
            "confirm",
            Some(json!({"action": "deploy"})),
            CallOptions::default(),
        )
        .await
        .expect("tools/call confirm");
    assert!(!confirmed.is_error, "{}", text(&confirmed));
    assert_eq!(
        confirmed.structured_content,
        Some(json!({"action": "deploy", "answer": "accept",
            "content": {"confirm": true, "note": "from gatehouse"}, "requestState": "asked:deploy"}))
    );

    // Progress, in order, before the result.
    let (counted, updates) =
        count_with_progress(&client, json!({"steps": 3, "interval_ms": 10})).await;
    assert_eq!(counted, "counted to 3");
    let steps: Vec<_> = updates
        .into_iter()
        .map(|p| (p.progress, p.total, p.message))
        .collect();
    assert_eq!(
        steps,
        (1..=3)
            .map(|n| (f64::from(n), Some(3.0), Some(format!("step {n}"))))
            .collect::<Vec<_>>()
    );

    // Cancellation: a dropped call is cancelled on the server.
    assert_a_dropped_call_is_cancelled(
        &client,
        json!({"steps": 3000, "interval_ms": 20}),
        client.transport_kind(),
    )
    .await;
    client.close().await.expect("close");
}

#[tokio::test]
async fn python_modern_era_over_stdio() {
    let (python, script) = python_fixture();
    let mut config = StdioConfig::new(python);
    config.args = vec![script, "stdio".into(), "--extras".into()];
    let handler = confirming();
    let client = Client::connect_stdio(&config, with_form_elicitation(), handler.clone())
        .await
        .expect("connect");
    exercise(client, &handler).await;
}

#[tokio::test]
async fn python_modern_era_over_streamable_http() {
    let server = HttpServer::python_with("streamable-http", &["--extras"]).await;
    let handler = confirming();
    let client = Client::connect_http(
        &server.config("/mcp"),
        HttpMode::Auto,
        with_form_elicitation(),
        handler.clone(),
    )
    .await
    .expect("connect");
    exercise(client, &handler).await;
}
