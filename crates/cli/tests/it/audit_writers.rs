//! Concurrent writers on one audit log: several `gatehouse call` processes, each with its own
//! server-everything over stdio, call tools at the same time as an in-process engine in live
//! mode (as the desktop app runs it) calls tools on its own session. Each call works or fails
//! with one clear line; every call that worked has its rows, and the chain verifies afterwards.

use std::process::Output;
use std::time::Duration;

use crate::support::{data_with_everything, gatehouse, ok, stderr, stdout};
use gatehouse_host::{
    AuditFilter, CallOutcome, Host, HostOptions, ServerStatus, Source, ToolCall, VerifyReport,
};
use gatehouse_mcp::CallOptions;
use serde_json::json;

/// CLI processes running at once, and the calls each makes one after another.
const PROCESSES: usize = 4;
const CALLS_EACH: usize = 3;
/// The in-process engine calls until every CLI process is done, at least this many times.
const APP_CALLS: usize = 20;
/// And at most this many times.
const APP_CALLS_MAX: usize = 5000;

/// Whether `output` is a call that echoed `message`; panics unless it is that or one clear
/// error line.
fn worked(message: &str, output: &Output) -> bool {
    if output.status.success() {
        assert!(
            stdout(output).contains(&format!("Echo: {message}")),
            "a call that succeeds prints its result"
        );
        return true;
    }
    let err = stderr(output);
    assert!(
        output.status.code() == Some(1) && err.starts_with("error: ") && err.lines().count() == 1,
        "a call that fails says why in one line (status {:?}): {err}",
        output.status.code()
    );
    false
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cli_processes_and_the_app_keep_one_chain() {
    let dir = data_with_everything("ev");
    let data = dir.path().to_path_buf();
    let app = Host::open(HostOptions {
        data_dir: Some(data.clone()),
        live_sessions: true,
        ..Default::default()
    })
    .await
    .expect("open the engine as the app does");
    let mut events = app.subscribe();
    app.start().await.expect("start");
    let mut last = None;
    // Each change of status is announced: the status is looked at again after each event.
    let connected = tokio::time::timeout(Duration::from_secs(60), async {
        loop {
            let view = app.server("ev").await.expect("the server");
            if matches!(view.status, ServerStatus::Connected { .. }) {
                return view;
            }
            last = Some(view.status);
            if let Err(tokio::sync::broadcast::error::RecvError::Closed) = events.recv().await {
                panic!("the engine's events ended");
            }
        }
    })
    .await;
    let server = connected
        .unwrap_or_else(|_| panic!("the app's session must connect within 60 s: {last:?}"));

    let processes: Vec<_> = (0..PROCESSES)
        .map(|p| {
            let data = data.clone();
            std::thread::spawn(move || {
                (0..CALLS_EACH)
                    .map(|j| {
                        let message = format!("cli-{p}-{j}");
                        let arguments = json!({ "message": message }).to_string();
                        let output =
                            gatehouse(&data, &["call", "ev", "echo", "--args", &arguments]);
                        (message, output)
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut app_done = Vec::new();
    let cli_running =
        |processes: &[std::thread::JoinHandle<_>]| processes.iter().any(|p| !p.is_finished());
    for n in 0..APP_CALLS_MAX {
        if n >= APP_CALLS && !cli_running(&processes) {
            break;
        }
        let message = format!("app-{n}");
        let call = ToolCall {
            tool: "echo".into(),
            arguments: Some(json!({ "message": message })),
            source: Source::User,
            caller: None,
        };
        let outcome = app
            .call_tool(
                &server.config.id,
                call,
                CallOptions::default(),
                std::future::pending(),
            )
            .await
            .expect("the app's calls wait for the other writers, they do not fail");
        assert!(matches!(outcome, CallOutcome::Done(_)));
        app_done.push(message);
    }
    let mut cli_done = Vec::new();
    for process in processes {
        for (message, output) in process.join().expect("a CLI thread") {
            if worked(&message, &output) {
                cli_done.push(message);
            }
        }
    }
    assert!(
        !cli_done.is_empty(),
        "some CLI calls must get through, or this test shows nothing"
    );

    let verified = app.audit().verify().await.expect("verify");
    // Every row, a page of (at most) 10,000 at a time: the app's calls go on until the CLI
    // processes end, which may be more rows than one listing holds.
    let mut rows = Vec::new();
    loop {
        let page = app
            .audit()
            .list(&AuditFilter {
                limit: Some(10_000),
                offset: Some(u32::try_from(rows.len()).unwrap_or(u32::MAX)),
                ..Default::default()
            })
            .await
            .expect("list");
        if page.is_empty() {
            break;
        }
        rows.extend(page);
    }
    assert_eq!(
        verified,
        VerifyReport::Intact {
            rows: u64::try_from(rows.len()).unwrap_or(0)
        },
        "interleaved writers in several processes must extend one chain, never fork it"
    );
    assert!(ok(&data, &["audit", "verify"]).starts_with("audit log intact: "));
    let asked_seq = |message: &str| {
        rows.iter()
            .find(|r| {
                r.event.kind == gatehouse_host::AuditKind::RequestReceived
                    && r.event.detail["arguments"]["message"] == message
            })
            .unwrap_or_else(|| panic!("the request of `{message}` is on record"))
    };
    let app_span = app_done
        .first()
        .zip(app_done.last())
        .map(|(first, last)| asked_seq(first).seq..asked_seq(last).seq);
    assert!(
        cli_done.iter().any(|m| app_span
            .as_ref()
            .is_some_and(|span| span.contains(&asked_seq(m).seq))),
        "the CLI processes wrote while the app was writing (else this shows no concurrency)"
    );
    for message in cli_done.iter().chain(&app_done) {
        let asked = asked_seq(message);
        let finished = rows.iter().any(|r| {
            r.event.kind == gatehouse_host::AuditKind::CallFinished
                && r.event.correlation == asked.event.correlation
        });
        assert!(finished, "the outcome of `{message}` is on record");
    }
    app.shutdown().await;
}
