//! The queue on its own: answers, refusals of answers that do not fit, timeouts, nobody to
//! ask, the bound, and a requester that gives up.

use std::time::Duration;

use serde_json::json;

use super::*;

fn queue(timeout: Duration) -> (Approvals, tokio::sync::broadcast::Receiver<EngineEvent>) {
    let events = EventBus::default();
    let listening = events.subscribe();
    let approvals = Approvals::new(events, timeout);
    approvals.set_attended(true);
    (approvals, listening)
}

fn tool_call() -> Asking {
    Asking {
        server: "fs".into(),
        server_id: "s-1".into(),
        source: Source::App,
        reason: "no rule applies".into(),
        rule: None,
        question: Question::ToolCall {
            tool: "write".into(),
            title: None,
            description: Some("Writes a file".into()),
            annotations: json!({"destructiveHint": true}),
            arguments: json!({"path": "/tmp/a", "text": "hi"}),
            input_schema: json!({"type": "object", "required": ["path"],
                "properties": {"path": {"type": "string"}, "text": {"type": "string"}}}),
            definition_hash: Some("h".into()),
            changes: vec![],
        },
    }
}

/// Waits for the first pending request and returns its id.
async fn first_pending(approvals: &Approvals) -> String {
    for _ in 0..200 {
        if let Some(pending) = approvals.pending().first() {
            return pending.id.clone();
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!("nothing was asked");
}

#[tokio::test]
async fn an_answer_reaches_the_asker_and_the_request_leaves_the_queue() {
    let (approvals, mut events) = queue(Duration::from_secs(30));
    let asker = tokio::spawn({
        let approvals = approvals.clone();
        async move { approvals.ask(tool_call()).await }
    });
    let id = first_pending(&approvals).await;
    assert!(matches!(
        events.recv().await,
        Ok(EngineEvent::ApprovalAsked(pending)) if pending.id == id
    ));
    let edited = json!({"path": "/tmp/b"});
    approvals
        .answer(
            &id,
            Answer::Allow {
                scope: Scope::Once,
                arguments: Some(edited.clone()),
            },
        )
        .expect("a fitting answer");
    assert_eq!(
        asker.await.expect("the asker"),
        Outcome::Answered(Answer::Allow {
            scope: Scope::Once,
            arguments: Some(edited)
        })
    );
    assert!(approvals.pending().is_empty());
    assert!(
        approvals
            .answer(&id, Answer::Deny { reason: None })
            .is_err(),
        "an answered request cannot be answered again"
    );
}

#[tokio::test]
async fn answers_that_do_not_fit_are_refused_and_the_request_keeps_waiting() {
    let (approvals, _events) = queue(Duration::from_secs(30));
    let asker = tokio::spawn({
        let approvals = approvals.clone();
        async move { approvals.ask(tool_call()).await }
    });
    let id = first_pending(&approvals).await;
    let wrong_kind = approvals.answer(&id, Answer::Respond { text: "hi".into() });
    assert!(
        wrong_kind.is_err(),
        "a written reply does not answer a tool call"
    );
    let missing = approvals.answer(
        &id,
        Answer::Allow {
            scope: Scope::Once,
            arguments: Some(json!({"text": 3})),
        },
    );
    let message = missing
        .expect_err("edits must match the inputSchema")
        .to_string();
    assert!(
        message.contains("inputSchema") && message.contains("path"),
        "{message}"
    );
    assert!(
        approvals
            .answer(
                &id,
                Answer::Allow {
                    scope: Scope::Once,
                    arguments: Some(json!([1]))
                }
            )
            .is_err(),
        "arguments are an object"
    );
    assert_eq!(approvals.pending().len(), 1, "still waiting");
    approvals
        .answer(
            &id,
            Answer::Deny {
                reason: Some("not now".into()),
            },
        )
        .expect("deny fits anything");
    assert_eq!(
        asker.await.expect("the asker"),
        Outcome::Answered(Answer::Deny {
            reason: Some("not now".into())
        })
    );
}

#[tokio::test]
async fn an_unanswered_request_times_out_and_nobody_to_ask_refuses_at_once() {
    let (approvals, _events) = queue(Duration::from_millis(50));
    assert_eq!(
        approvals.ask(tool_call()).await,
        Outcome::TimedOut(Duration::from_millis(50))
    );
    assert!(approvals.pending().is_empty(), "a timed-out request leaves");
    approvals.set_attended(false);
    assert_eq!(approvals.ask(tool_call()).await, Outcome::Unattended);
}

#[tokio::test]
async fn the_queue_is_bounded_and_a_requester_that_gives_up_leaves_it() {
    let (approvals, _events) = queue(Duration::from_secs(30));
    let mut askers = Vec::new();
    for _ in 0..CAPACITY {
        let approvals = approvals.clone();
        askers.push(tokio::spawn(
            async move { approvals.ask(tool_call()).await },
        ));
    }
    for _ in 0..200 {
        if approvals.pending().len() == CAPACITY {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(approvals.pending().len(), CAPACITY);
    assert_eq!(approvals.ask(tool_call()).await, Outcome::Full);
    for asker in &askers {
        asker.abort();
    }
    for asker in askers {
        let _ = asker.await;
    }
    assert!(
        approvals.pending().is_empty(),
        "requests whose askers gave up are gone"
    );
}

#[tokio::test]
async fn an_elicitation_is_answered_with_content_that_matches_its_schema() {
    let (approvals, _events) = queue(Duration::from_secs(30));
    let asking = Asking {
        question: Question::Elicitation {
            message: "Who are you?".into(),
            requested_schema: json!({"type": "object", "required": ["name"],
                "properties": {"name": {"type": "string"}, "age": {"type": "integer"}}}),
        },
        source: Source::Server,
        ..tool_call()
    };
    let asker = tokio::spawn({
        let approvals = approvals.clone();
        async move { approvals.ask(asking).await }
    });
    let id = first_pending(&approvals).await;
    let bad = approvals.answer(
        &id,
        Answer::Accept {
            content: Some(json!({"age": "old"})),
        },
    );
    assert!(bad.is_err(), "the form's schema holds");
    assert!(
        approvals
            .answer(&id, Answer::Accept { content: None })
            .is_err()
    );
    let good = json!({"name": "Ada", "age": 36});
    approvals
        .answer(
            &id,
            Answer::Accept {
                content: Some(good.clone()),
            },
        )
        .expect("a valid form");
    assert_eq!(
        asker.await.expect("the asker"),
        Outcome::Answered(Answer::Accept {
            content: Some(good)
        })
    );
}
