//! The gate against a real server (server-everything over stdio): a person's tool call passes
//! it and returns the server's result, a call from a source that no rule allows is refused
//! before it reaches the server, a call given up on is cancelled, and each of them leaves its
//! rows in the audit log (request, decision, outcome), whose chain stays intact; the app's calls
//! run on a live session through `Host::call_tool`.

use crate::support;

use crate::support::gate::{audited, connect_everything, first_text, tool_rule};
use gatehouse_host::{
    AuditFilter, AuditKind, CallOutcome, Host, ServerStatus, Source, ToolCall, VerifyReport,
};
use gatehouse_mcp::CallOptions;
use serde_json::json;

fn echo(source: Source) -> ToolCall {
    ToolCall {
        tool: "echo".into(),
        arguments: Some(json!({"message": "through the gate"})),
        source,
        caller: None,
    }
}

/// A person's `echo` call on the live session of the server `id`.
async fn echo_on(host: &Host, id: &str) -> gatehouse_host::Result<CallOutcome> {
    host.call_tool(
        id,
        echo(Source::User),
        CallOptions::default(),
        std::future::pending(),
    )
    .await
}

#[tokio::test]
async fn a_persons_call_passes_and_others_need_a_rule() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), false).await;
    let connection = connect_everything(&host).await;

    let outcome = connection
        .call_tool(
            echo(Source::User),
            CallOptions::default(),
            std::future::pending(),
        )
        .await
        .expect("a call the person starts is its own consent");
    let text = first_text(outcome);
    assert!(text.contains("through the gate"), "{text}");

    let refused = connection
        .call_tool(
            echo(Source::Model),
            CallOptions::default(),
            std::future::pending(),
        )
        .await
        .expect_err("no rule allows a model's call yet");
    assert!(refused.to_string().contains("denied"), "{refused}");

    let long = ToolCall {
        tool: "trigger-long-running-operation".into(),
        arguments: Some(json!({"duration": 30, "steps": 30})),
        source: Source::User,
        caller: None,
    };
    let cancelled = connection
        .call_tool(long, CallOptions::default(), async {
            // Not synchronisation: the person cancels the 30-second call partway through,
            // wherever it has got to; the outcome is `Cancelled` either way.
            tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        })
        .await
        .expect("a cancelled call is an outcome, not an error");
    assert!(matches!(cancelled, CallOutcome::Cancelled));
    connection.close(Ok(())).await.expect("close");

    let rows = audited(&host, "echo").await;
    let kinds: Vec<(AuditKind, Option<&str>, Option<&str>)> = rows
        .iter()
        .map(|r| {
            (
                r.event.kind,
                r.event.source.as_deref(),
                r.event.decision.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            (AuditKind::RequestReceived, Some("user"), None),
            (AuditKind::Decision, Some("user"), Some("allow")),
            (AuditKind::CallFinished, Some("user"), None),
            (AuditKind::RequestReceived, Some("model"), None),
            (AuditKind::Decision, Some("model"), Some("deny")),
        ],
        "each call is on record; a denied one never reached the server"
    );
    assert_eq!(
        rows[0].event.detail["arguments"]["message"],
        "through the gate"
    );
    assert_eq!(
        rows[0].event.detail["definitionHash"]
            .as_str()
            .map(str::len),
        Some(64),
        "the call records which definition of the tool it was"
    );
    assert_eq!(rows[2].event.correlation, rows[0].event.correlation);
    assert_eq!(rows[2].event.transport.as_deref(), Some("stdio"));
    let long = audited(&host, "trigger-long-running-operation").await;
    assert_eq!(
        long.last().and_then(|r| r.event.error_type.as_deref()),
        Some("cancelled")
    );
    let all = AuditFilter {
        limit: Some(1000),
        ..AuditFilter::default()
    };
    let written = host.audit().list(&all).await.expect("list").len();
    assert!(written >= 8, "{written}");
    assert_eq!(
        host.audit().verify().await.expect("verify"),
        VerifyReport::Intact {
            rows: u64::try_from(written).unwrap_or_default()
        },
        "every row written is in one intact chain"
    );
}

#[tokio::test]
async fn stored_rules_decide_and_a_changed_definition_voids_a_grant() {
    use gatehouse_host::policy::{Effect, Rule};
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), false).await;
    let connection = connect_everything(&host).await;
    let server_id = connection.server_id().to_owned();
    let call =
        |source| connection.call_tool(echo(source), CallOptions::default(), std::future::pending());

    call(Source::User).await.expect("allowed by default");
    let (hash, definition) = host
        .policy()
        .latest_definition(&server_id, "echo")
        .await
        .expect("history")
        .expect("the gate kept the definition of the tool it called");
    assert_eq!(definition["name"], "echo");

    let rule = |effect, hash: Option<&str>| Rule {
        definition_hash: hash.map(str::to_owned),
        ..tool_rule(&server_id, "echo", effect)
    };
    let granted = host
        .policy()
        .add(rule(Effect::Allow, Some(&hash)))
        .await
        .expect("add");
    call(Source::Model)
        .await
        .expect("a grant for this very definition allows a model's call");
    host.policy().remove(&granted.id).await.expect("remove");

    host.policy()
        .add(rule(Effect::Allow, Some("0000")))
        .await
        .expect("add");
    let stale = call(Source::Model)
        .await
        .expect_err("a grant for another definition is void");
    assert!(stale.to_string().contains("changed"), "{stale}");

    let denied = host
        .policy()
        .add(rule(Effect::Deny, None))
        .await
        .expect("add");
    let refused = call(Source::User)
        .await
        .expect_err("a deny rule holds even for the person");
    match refused {
        gatehouse_host::HostError::Denied { rule, .. } => {
            assert_eq!(
                rule.as_deref(),
                Some(denied.id.as_str()),
                "the deciding rule is named"
            );
        }
        other => panic!("expected a denial, got {other:?}"),
    }
    connection.close(Ok(())).await.expect("close");
}

#[tokio::test]
async fn a_servers_own_requests_are_on_record_with_their_answers() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), false).await;
    let _declines = support::answer_with(&host, |_| gatehouse_host::approvals::Answer::Deny {
        reason: Some("not now".into()),
    });
    let connection = connect_everything(&host).await;
    for tool in ["trigger-elicitation-request", "get-roots-list"] {
        let call = ToolCall {
            tool: tool.into(),
            arguments: Some(json!({})),
            source: Source::User,
            caller: None,
        };
        connection
            .call_tool(call, CallOptions::default(), std::future::pending())
            .await
            .expect("the call completes");
    }
    connection.close(Ok(())).await.expect("close");

    let filter = AuditFilter {
        source: Some("server".into()),
        ..AuditFilter::default()
    };
    let mut rows = host.audit().list(&filter).await.expect("list");
    rows.reverse();
    // server-everything may ask for the roots on its own as soon as it starts (the host
    // declares roots with `listChanged`), before or after the elicitation, and asks again for
    // its tool when that comes before its first answer: each request's rows are in order, the
    // requests in either order, and the roots asked once or twice.
    rows.sort_by_key(|r| r.event.method.as_deref() != Some("elicitation/create"));
    let roots: Vec<AuditKind> = rows
        .iter()
        .filter(|r| r.event.method.as_deref() == Some("roots/list"))
        .map(|r| r.event.kind)
        .collect();
    let asked = roots
        .iter()
        .filter(|k| **k == AuditKind::RequestReceived)
        .count();
    let answered = roots
        .iter()
        .filter(|k| **k == AuditKind::CallFinished)
        .count();
    assert!(
        (1..=2).contains(&asked) && answered == asked && roots.len() == 2 * asked,
        "each roots request received and answered: {roots:?}"
    );
    assert_eq!(rows.len(), 4 + roots.len(), "only these requests");
    let seen: Vec<(AuditKind, Option<&str>, Option<&str>)> = rows
        .iter()
        .take(4)
        .map(|r| {
            (
                r.event.kind,
                r.event.method.as_deref(),
                r.event.error_type.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            (AuditKind::RequestReceived, Some("elicitation/create"), None),
            (AuditKind::Decision, Some("elicitation/create"), None),
            (AuditKind::Decision, Some("elicitation/create"), None),
            (
                AuditKind::CallFinished,
                Some("elicitation/create"),
                Some("decline")
            ),
        ],
        "what a server asks of the host, and what it was answered, is on record"
    );
    assert!(
        rows[0].event.detail["params"]["message"].is_string(),
        "{:?}",
        rows[0].event.detail
    );
    let decided: Vec<Option<&str>> = rows[1..3]
        .iter()
        .map(|r| r.event.decision.as_deref())
        .collect();
    assert_eq!(
        decided,
        [Some("ask"), Some("deny")],
        "asked, then declined by the person"
    );
    assert_eq!(rows[2].event.detail["answeredBy"], "person");
    for finished in rows[4..]
        .iter()
        .filter(|r| r.event.kind == AuditKind::CallFinished)
    {
        assert_eq!(finished.event.detail["result"]["roots"], json!([]));
    }
    assert!(matches!(
        host.audit().verify().await.expect("verify"),
        VerifyReport::Intact { .. }
    ));
}

#[tokio::test]
async fn the_apps_call_runs_on_the_live_session_until_it_ends() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), true).await;
    let id = host
        .add_server(support::everything("everything"))
        .await
        .expect("add")
        .config
        .id;
    let status = support::settled(&host, "everything").await;
    assert!(
        matches!(status, ServerStatus::Connected { .. }),
        "server-everything must connect: {status:?}"
    );

    let kept = host
        .policy()
        .latest_definition(&id, "echo")
        .await
        .expect("history");
    assert!(
        kept.is_some(),
        "the definitions a live session lists are kept, so a changed tool voids its grants"
    );
    let outcome = echo_on(&host, &id)
        .await
        .expect("a connected session takes a person's call");
    let text = first_text(outcome);
    assert!(
        text.contains("through the gate"),
        "the live session's server answers: {text}"
    );

    // A long call reports progress; disabling the server ends its session, and the call
    // with it, instead of leaving the call to wait on a connection that is gone.
    let (progress, mut updates) = tokio::sync::mpsc::channel(gatehouse_mcp::updates::UPDATE_BUFFER);
    let long = ToolCall {
        tool: "trigger-long-running-operation".into(),
        arguments: Some(json!({"duration": 30, "steps": 30})),
        source: Source::User,
        caller: None,
    };
    let options = CallOptions {
        progress: Some(progress),
        ..CallOptions::default()
    };
    let call = host.call_tool(&id, long, options, std::future::pending());
    let disable = async {
        let first = updates.recv().await;
        assert!(first.is_some(), "the long operation reports progress");
        host.set_enabled(&id, false).await.expect("disable");
    };
    let (ended, ()) = tokio::join!(call, disable);
    let error = ended.expect_err("a call whose connection ends cannot succeed");
    assert_eq!(
        error.code(),
        "not_connected",
        "the call says its server went away: {error}"
    );

    let refused = echo_on(&host, &id)
        .await
        .expect_err("a disabled server has no session to call on");
    assert_eq!(refused.code(), "not_connected", "{refused}");
    host.shutdown().await;
}

#[tokio::test]
async fn a_rule_another_process_adds_or_removes_applies_to_the_next_call() {
    use gatehouse_host::policy::Effect;
    let dir = tempfile::tempdir().expect("temp dir");
    let app = support::open_host(dir.path(), false).await;
    let connection = connect_everything(&app).await;
    let server_id = connection.server_id().to_owned();
    let call =
        |source| connection.call_tool(echo(source), CallOptions::default(), std::future::pending());
    call(Source::Model)
        .await
        .expect_err("no rule allows a model's call yet");

    // Another process (its own pool and connections) changes the policy between two calls:
    // what the gate kept of the rules must not outlive the change.
    let cli = support::open_host(dir.path(), false).await;
    let allowed = cli
        .policy()
        .add(tool_rule(&server_id, "echo", Effect::Allow))
        .await
        .expect("add");
    call(Source::Model)
        .await
        .expect("the rule added elsewhere allows the very next call");
    call(Source::Model).await.expect("and the one after");

    cli.policy().remove(&allowed.id).await.expect("remove");
    call(Source::Model)
        .await
        .expect_err("once removed elsewhere, it allows nothing more");

    // Each call was received and decided once: a decision made under the policy the gate had
    // kept, found out of date at its commit, left nothing on record; and with no rule the
    // question goes to nobody (no person here) only under rules checked current, so the call
    // after the rule was added elsewhere was not asked under the rules kept from before it.
    let calls = AuditFilter {
        tool: Some("echo".into()),
        ..AuditFilter::default()
    };
    let mut rows = app.audit().list(&calls).await.expect("list");
    rows.reverse();
    let of = |kind| rows.iter().filter(|r| r.event.kind == kind).count();
    assert_eq!(of(AuditKind::RequestReceived), 4, "{rows:#?}");
    let decisions: Vec<_> = rows
        .iter()
        .filter(|r| r.event.kind == AuditKind::Decision)
        .map(|r| {
            let text = |key| r.event.detail.get(key).and_then(|v| v.as_str());
            let (decision, by) = (r.event.decision.as_deref(), text("answeredBy"));
            (decision, by, text("rule"))
        })
        .collect();
    let rule = Some(allowed.id.as_str());
    assert_eq!(
        decisions,
        [
            (Some("deny"), Some("nobody"), None),
            (Some("allow"), Some("policy"), rule),
            (Some("allow"), Some("policy"), rule),
            (Some("deny"), Some("nobody"), None),
        ],
        "{rows:#?}"
    );
    connection.close(Ok(())).await.expect("close");
    cli.shutdown().await;
    app.shutdown().await;
}
