//! The engine's settings on a real SQLite file: each value checked against its range (nothing
//! stored when one is out of it), kept across a reopen and opened with, and applied at once: an
//! approval waits the new timeout (server-everything's `echo`, asked about and not answered), a
//! silent server's health checks re-armed from an hour to a second (tests/fixtures/faults/
//! health.py), another process's change followed by a live engine, and the audit retention
//! applied by the daily job (on a clock the test sets) with an anchor the chain verifies from.

use crate::support;

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use crate::support::gate::connect_everything;
use gatehouse_host::{
    AuditEvent, AuditFilter, AuditKind, EngineSettings, HealthChecks, Host, HostError, HostOptions,
    ServerStatus, SettingsClock, Source, ToolCall, VerifyReport,
};
use gatehouse_mcp::CallOptions;
use serde_json::json;

#[tokio::test]
async fn values_out_of_range_are_refused_naming_the_setting_and_nothing_is_stored() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), false).await;
    assert_eq!(
        host.settings().await.expect("settings"),
        EngineSettings::default()
    );
    for (key, value, says) in [
        (
            "approval-timeout",
            "0",
            "approval-timeout must be 1 to 86400 seconds, not 0",
        ),
        (
            "health-check-interval",
            "3601",
            "health-check-interval must be 1 to 3600 seconds, not 3601",
        ),
        (
            "stop-term-grace",
            "600001",
            "stop-term-grace must be 0 to 600000 milliseconds",
        ),
        (
            "audit-retention",
            "0",
            "audit-retention must be 1 to 36500 days",
        ),
        ("audit-retention", "a week", "is not a whole number of days"),
        ("theme", "dark", "no setting `theme`"),
    ] {
        let refused = host.set_setting(key, value).await.expect_err(key);
        assert!(
            matches!(&refused, HostError::Validation(m) if m.contains(says)),
            "{key}={value}: {refused}"
        );
    }
    let whole = EngineSettings {
        health_every_secs: 0,
        ..EngineSettings::default()
    };
    assert!(matches!(
        host.set_settings(whole).await,
        Err(HostError::Validation(_))
    ));
    assert_eq!(
        host.settings().await.expect("settings"),
        EngineSettings::default(),
        "nothing stored"
    );
}

#[tokio::test]
async fn settings_are_kept_across_a_reopen_and_the_engine_opens_with_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let chosen = EngineSettings {
        approval_timeout_secs: 42,
        stop_stdin_ms: 500,
        stop_term_ms: 0,
        health_every_secs: 7,
        audit_retention_days: Some(90),
    };
    {
        let host = support::open_host(dir.path(), false).await;
        host.set_settings(chosen).await.expect("set");
        host.shutdown().await;
    }
    let host = support::open_host(dir.path(), false).await;
    assert_eq!(host.settings().await.expect("settings"), chosen);
    assert_eq!(host.approvals().timeout(), Duration::from_secs(42));
    let grace = host.default_stop_grace().await.expect("grace");
    assert_eq!((grace.stdin_ms, grace.term_ms), (500, 0));
    let off = host
        .set_setting("audit-retention", "off")
        .await
        .expect("off");
    assert_eq!(off.audit_retention_days, None);
    assert_eq!(
        host.settings()
            .await
            .expect("settings")
            .audit_retention_days,
        None
    );
}

#[tokio::test]
async fn the_next_approval_waits_the_new_timeout() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), false).await;
    assert_eq!(host.approvals().timeout(), Duration::from_secs(300));
    let connection = connect_everything(&host).await;
    host.set_attended(true);
    host.set_setting("approval-timeout", "1")
        .await
        .expect("set");
    let mut events = host.subscribe();

    let began = Instant::now();
    let call = ToolCall {
        tool: "echo".into(),
        arguments: Some(json!({ "message": "late" })),
        source: Source::App,
        caller: None,
    };
    let refused = connection
        .call_tool(call, CallOptions::default(), std::future::pending())
        .await
        .expect_err("nobody answers");
    let waited = began.elapsed();
    assert!(refused.to_string().contains("nobody answered"), "{refused}");
    assert!(
        waited >= Duration::from_secs(1) && waited < Duration::from_secs(30),
        "waited the new timeout, not the old one: {waited:?}"
    );
    let asked = loop {
        match events.try_recv().expect("the request was asked about") {
            gatehouse_host::EngineEvent::ApprovalAsked(pending) => break pending,
            _ => continue,
        }
    };
    assert_eq!(
        asked.expires_at_ms - asked.asked_at_ms,
        1000.0,
        "the person was shown the new timeout"
    );
    connection.close(Ok(())).await.expect("close");
}

#[tokio::test]
async fn a_new_health_check_interval_re_arms_the_live_connections() {
    let dir = tempfile::tempdir().expect("temp dir");
    let starts = dir.path().join("starts");
    let host = support::open_checked_host(
        dir.path(),
        HealthChecks {
            every: Duration::from_secs(3600),
            answer_within: Duration::from_millis(300),
            misses_before_restart: 3,
        },
    )
    .await;
    host.start().await.expect("start");
    let script = support::fixtures().join("faults/health.py");
    let silent = support::stdio(
        "silent",
        "python3",
        vec![
            script.display().to_string(),
            "falls-silent".into(),
            starts.display().to_string(),
            "0".into(),
        ],
    );
    host.add_server(silent).await.expect("add");
    let connected = support::settled(&host, "silent").await;
    assert!(
        matches!(connected, ServerStatus::Connected { .. }),
        "{connected:?}"
    );

    host.set_setting("health-check-interval", "1")
        .await
        .expect("set");
    let degraded = support::status_until(&host, "silent", Duration::from_secs(10), |s| {
        matches!(s, ServerStatus::Degraded { .. })
    })
    .await;
    assert!(
        matches!(&degraded, ServerStatus::Degraded { reason, .. } if reason.contains("ping")),
        "checked within seconds, not the hour it was armed for: {degraded:?}"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn a_live_engine_follows_a_change_another_process_stores() {
    let dir = tempfile::tempdir().expect("temp dir");
    let app = Host::open(HostOptions {
        data_dir: Some(dir.path().into()),
        live_sessions: true,
        store_poll: Some(Duration::from_millis(50)),
        ..Default::default()
    })
    .await
    .expect("open the app's engine");
    app.start().await.expect("start");
    let cli = support::open_host(dir.path(), false).await;
    cli.set_setting("approval-timeout", "17")
        .await
        .expect("set from the CLI");
    support::wait::until(
        "the app's engine takes the new timeout",
        Duration::from_secs(5),
        || async {
            let timeout = app.approvals().timeout();
            if timeout == Duration::from_secs(17) {
                Ok(())
            } else {
                Err(timeout)
            }
        },
    )
    .await;
    app.shutdown().await;
}

#[tokio::test]
async fn the_daily_job_applies_the_retention_and_the_chain_verifies_from_its_anchor() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Three days from now, every row written today is older than a one-day retention.
    let later = SystemTime::now() + Duration::from_secs(3 * 86_400);
    let host = Host::open(HostOptions {
        data_dir: Some(dir.path().into()),
        live_sessions: true,
        store_poll: Some(Duration::from_millis(50)),
        settings_clock: Some(SettingsClock {
            retention_every: Duration::from_millis(100),
            now: Arc::new(move || later),
        }),
        ..Default::default()
    })
    .await
    .expect("open");
    let events = (1..=5)
        .map(|i| AuditEvent {
            kind: AuditKind::CallFinished,
            server: Some("everything".into()),
            source: Some("user".into()),
            method: Some("tools/call".into()),
            tool: Some("echo".into()),
            detail: json!({ "note": i }),
            ..Default::default()
        })
        .collect();
    host.audit().append_all(events).await.expect("append");
    host.start().await.expect("start");
    host.set_setting("audit-retention", "1").await.expect("set");

    let anchor = support::wait::until(
        "the daily job prunes and anchors",
        Duration::from_secs(10),
        || async {
            let rows = host
                .audit()
                .list(&AuditFilter {
                    limit: Some(100),
                    ..Default::default()
                })
                .await
                .expect("list");
            match rows.iter().find(|r| r.event.kind == AuditKind::Retention) {
                Some(anchor) => Ok(anchor.clone()),
                None => Err(rows.len()),
            }
        },
    )
    .await;
    assert!(
        anchor.event.detail["dropped"].as_u64().unwrap_or(0) >= 5,
        "the five rows written today are dropped: {}",
        anchor.event.detail
    );
    let rows = host
        .audit()
        .list(&AuditFilter::default())
        .await
        .expect("list");
    assert!(
        rows.iter().all(|r| r.event.detail.get("note").is_none()),
        "no pruned row is left"
    );
    assert!(
        matches!(
            host.audit().verify().await.expect("verify"),
            VerifyReport::Intact { .. }
        ),
        "the chain verifies from the anchor"
    );
    host.shutdown().await;
}
