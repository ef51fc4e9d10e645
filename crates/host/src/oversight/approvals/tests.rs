//! The queue on its own: answers, refusals of answers that do not fit, timeouts, nobody to
//! ask, the bound, each asker's fair share of it and its rate on tokio's paused clock, and a
//! requester that gives up or withdraws its request.

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
            default_covers: crate::oversight::policy::Covers::These,
            always_offered: true,
        },
    }
}

/// The same call, asked for the server `server_id` by `source`.
fn tool_call_of(server_id: &str, source: Source) -> Asking {
    Asking {
        server_id: server_id.into(),
        source,
        ..tool_call()
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
                covers: None,
            },
        )
        .expect("a fitting answer");
    assert_eq!(
        asker.await.expect("the asker"),
        Outcome::Answered(Answer::Allow {
            scope: Scope::Once,
            arguments: Some(edited),
            covers: None
        })
    );
    assert!(approvals.pending().is_empty());
    // Whoever else shows the request (another terminal, the window) hears it was answered.
    let answered = loop {
        match events.try_recv() {
            Ok(EngineEvent::ApprovalAnswered { id: was, answer }) => break Some((was, answer)),
            Ok(_) => {}
            Err(_) => break None,
        }
    };
    assert_eq!(answered, Some((id.clone(), "allowed once".to_owned())));
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
            covers: None,
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
                    arguments: Some(json!([1])),
                    covers: None
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
        // The person's own calls have no share to use up: only the bound holds them.
        let asking = tool_call_of("s-1", Source::User);
        askers.push(tokio::spawn(async move { approvals.ask(asking).await }));
    }
    for _ in 0..200 {
        if approvals.pending().len() == CAPACITY {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(approvals.pending().len(), CAPACITY);
    assert!(
        matches!(approvals.ask(tool_call_of("s-2", Source::User)).await,
            Outcome::Limited(why) if why.contains("64 requests already wait")),
        "past the bound, a request is refused at once, saying why"
    );
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

/// Waits until `count` requests are pending.
async fn pending_count(approvals: &Approvals, count: usize) {
    for _ in 0..200 {
        if approvals.pending().len() == count {
            return;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!(
        "{count} requests were not pending: {}",
        approvals.pending().len()
    );
}

#[tokio::test(start_paused = true)]
async fn one_asker_filling_its_share_does_not_make_another_servers_asks_fail() {
    let (approvals, _events) = queue(Duration::from_secs(600));
    let mut flood = Vec::new();
    for _ in 0..quota::WAITING {
        let approvals = approvals.clone();
        flood.push(tokio::spawn(async move {
            approvals.ask(tool_call_of("hostile", Source::App)).await
        }));
    }
    pending_count(&approvals, quota::WAITING).await;
    let refused = approvals.ask(tool_call_of("hostile", Source::App)).await;
    assert!(
        matches!(&refused, Outcome::Limited(why) if why.contains("waiting")),
        "the app past its share is refused at once, saying why: {refused:?}"
    );
    assert_eq!(
        approvals.pending().len(),
        quota::WAITING,
        "the refused one never waited"
    );

    // Another server's request, and the same server's own (another asker than its app), still
    // reach the person.
    for (server, source) in [("other", Source::Server), ("hostile", Source::Server)] {
        let asker = tokio::spawn({
            let approvals = approvals.clone();
            async move { approvals.ask(tool_call_of(server, source)).await }
        });
        pending_count(&approvals, quota::WAITING + 1).await;
        let id = approvals
            .pending()
            .into_iter()
            .find(|p| p.server_id == server && p.source == source)
            .expect("asked")
            .id;
        approvals
            .answer(&id, Answer::Deny { reason: None })
            .expect("answered");
        assert_eq!(
            asker.await.expect("the asker"),
            Outcome::Answered(Answer::Deny { reason: None })
        );
    }
    for asker in &flood {
        asker.abort();
    }
    for asker in flood {
        let _ = asker.await;
    }
    assert!(
        approvals
            .reserve(Asker::new("hostile", Source::App, None))
            .is_ok(),
        "once its requests leave, the app has its share again"
    );
}

#[tokio::test(start_paused = true)]
async fn an_asker_puts_at_most_ten_a_minute_to_the_person_on_the_clock() {
    let (approvals, _events) = queue(Duration::from_secs(600));
    for _ in 0..quota::PER_MINUTE {
        let asker = tokio::spawn({
            let approvals = approvals.clone();
            async move { approvals.ask(tool_call_of("chatty", Source::App)).await }
        });
        pending_count(&approvals, 1).await;
        let id = approvals.pending()[0].id.clone();
        approvals
            .answer(&id, Answer::Deny { reason: None })
            .expect("answered");
        asker.await.expect("the asker");
        tokio::time::advance(Duration::from_secs(1)).await;
    }
    let refused = approvals.ask(tool_call_of("chatty", Source::App)).await;
    assert!(
        matches!(&refused, Outcome::Limited(why) if why.contains("last minute")),
        "the eleventh in a minute is refused: {refused:?}"
    );
    assert!(approvals.pending().is_empty(), "and never shown");
    tokio::time::advance(Duration::from_secs(50)).await;
    let asker = tokio::spawn({
        let approvals = approvals.clone();
        async move { approvals.ask(tool_call_of("chatty", Source::App)).await }
    });
    pending_count(&approvals, 1).await;
    asker.abort();
    let _ = asker.await;
}

#[tokio::test]
async fn a_withdrawn_request_leaves_the_queue_and_says_so() {
    let (approvals, mut events) = queue(Duration::from_secs(30));
    let (withdraw, withdrawn) = tokio::sync::oneshot::channel::<String>();
    let slot = approvals
        .reserve(Asker::new("s-1", Source::Server, None))
        .expect("a place");
    let asker = tokio::spawn(async move {
        slot.ask(tool_call_of("s-1", Source::Server), async {
            withdrawn.await.unwrap_or_default()
        })
        .await
    });
    let id = first_pending(&approvals).await;
    withdraw
        .send("the server cancelled it".into())
        .expect("send");
    assert_eq!(
        asker.await.expect("the asker"),
        Outcome::Withdrawn("the server cancelled it".into())
    );
    assert!(approvals.pending().is_empty(), "no longer asked");
    assert!(
        approvals
            .answer(&id, Answer::Deny { reason: None })
            .is_err(),
        "a withdrawn request cannot be answered"
    );
    loop {
        match events.recv().await.expect("events") {
            EngineEvent::ApprovalWithdrawn { id: gone, reason } => {
                assert_eq!(
                    (gone.as_str(), reason.as_str()),
                    (id.as_str(), "the server cancelled it")
                );
                break;
            }
            _ => continue,
        }
    }
}

#[tokio::test(start_paused = true)]
async fn each_app_view_has_its_own_share_of_the_queue() {
    let (approvals, _events) = queue(Duration::from_secs(600));
    let view = |caller: &str| Asker::new("hostile", Source::App, Some(caller));
    let held: Vec<Slot> = (0..quota::WAITING)
        .map(|_| approvals.reserve(view("view a")).expect("within its share"))
        .collect();
    assert!(
        matches!(approvals.reserve(view("view a")), Err(Outcome::Limited(_))),
        "a view past its share is refused"
    );
    assert!(
        approvals.reserve(view("view b")).is_ok(),
        "another view of the same server still has its own"
    );
    drop(held);
}
