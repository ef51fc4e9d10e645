//! Live sessions against a real third-party server (`@modelcontextprotocol/server-everything`,
//! installed by `scripts/install-test-deps.sh`): connect, list tools, disable, a server that
//! cannot start, and servers that offer prompts or resources but no tools (the TypeScript SDK v2
//! fixture `partial.mjs`); a scripted server that changes its tool and says so in a loop.

use crate::support;

use crate::support::{everything_js, offering_only, settled as wait_for_settled, stdio};
use gatehouse_host::{EngineEvent, Offer, ServerStatus};

#[tokio::test]
async fn connects_an_enabled_stdio_server_and_lists_its_tools() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), true).await;
    let mut events = host.subscribe();
    let view = host
        .add_server(stdio(
            "everything",
            "node",
            vec![everything_js(), "stdio".into()],
        ))
        .await
        .expect("add");
    assert_eq!(
        view.status,
        ServerStatus::Connecting,
        "an enabled server starts connecting at once"
    );

    let status = wait_for_settled(&host, "everything").await;
    let ServerStatus::Connected {
        tool_count,
        server_name,
        protocol_version,
        offers,
        ..
    } = status
    else {
        panic!("server-everything must connect, got {status:?}");
    };
    assert_eq!(
        offers,
        Offer::ALL,
        "server-everything declares every feature, and they are listed in a fixed order"
    );
    assert_eq!(
        protocol_version, "2025-11-25",
        "server-everything speaks the latest handshake revision"
    );
    assert!(
        server_name.contains("everything"),
        "server info must come from the server: {server_name}"
    );
    let tools = host.tools("everything").await.expect("tools");
    assert_eq!(
        tools.len() as u32,
        tool_count,
        "the status must count the listed tools"
    );
    for expected in ["echo", "get-sum", "get-tiny-image"] {
        assert!(
            tools.iter().any(|t| t.name == expected),
            "tool {expected} must be listed"
        );
    }
    let echo = tools.iter().find(|t| t.name == "echo").expect("echo");
    assert_eq!(
        echo.input_schema["type"], "object",
        "the input schema is passed through"
    );

    let mut saw_connected = false;
    while let Ok(EngineEvent::ServerStatus { status, .. }) = events.try_recv() {
        saw_connected |= matches!(status, ServerStatus::Connected { .. });
    }
    assert!(
        saw_connected,
        "status changes must be announced to listeners"
    );

    let disabled = host
        .set_enabled("everything", false)
        .await
        .expect("disable");
    assert_eq!(disabled.status, ServerStatus::Disabled);
    assert!(
        host.tools("everything").await.is_err(),
        "a disabled server has no live tools"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn reports_why_a_server_failed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), true).await;
    host.add_server(stdio("missing", "/nonexistent/mcp-server", vec![]))
        .await
        .expect("add");
    host.add_server(stdio(
        "exits",
        "sh",
        vec!["-c".into(), "echo boom >&2; exit 3".into()],
    ))
    .await
    .expect("add");

    let ServerStatus::Failed { message } = wait_for_settled(&host, "missing").await else {
        panic!("a missing command must fail");
    };
    assert!(
        message.contains("could not start `/nonexistent/mcp-server`"),
        "got: {message}"
    );
    // A server that exits is started again after a pause; meanwhile its status says how it
    // ended, with its last stderr line.
    let ServerStatus::Restarting {
        attempt, message, ..
    } = wait_for_settled(&host, "exits").await
    else {
        panic!("a server that exits is restarted");
    };
    assert_eq!(attempt, 1);
    assert!(
        message.contains("exited with status 3") && message.contains("boom"),
        "its exit status and last stderr line explain the failure: {message}"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn a_server_without_tools_connects_and_shows_what_it_offers() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), true).await;
    for feature in ["prompts", "resources"] {
        let name = format!("{feature}-only");
        host.add_server(offering_only(&name, feature))
            .await
            .expect("add");
        let status = wait_for_settled(&host, &name).await;
        let ServerStatus::Connected {
            tool_count, offers, ..
        } = &status
        else {
            panic!(
                "a server that offers {feature} but no tools is a working server and must stay \
                 connected, got {status:?}"
            );
        };
        assert_eq!(*tool_count, 0, "it has no tools to count");
        let offered: Vec<&str> = offers.iter().map(|o| o.capability()).collect();
        assert_eq!(
            offered,
            [feature],
            "the status says what the server offers instead of tools, so a person sees why it \
             is worth connecting"
        );
        let tools = host
            .tools(&name)
            .await
            .expect("the tools of a connected server");
        assert!(tools.is_empty(), "no tools are listed: {tools:?}");
    }
    host.shutdown().await;
}

#[tokio::test]
async fn every_change_of_a_servers_connection_state_is_on_the_audit_log() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), true).await;
    host.start().await.expect("start");
    host.add_server(stdio(
        "everything",
        "node",
        vec![everything_js(), "stdio".into()],
    ))
    .await
    .expect("add");
    let status = wait_for_settled(&host, "everything").await;
    assert!(
        matches!(status, ServerStatus::Connected { .. }),
        "{status:?}"
    );
    host.stop_server("everything").await.expect("stop");
    host.shutdown().await;

    let reopened = support::open_host(dir.path(), false).await;
    let mut rows = reopened
        .audit()
        .list(&gatehouse_host::AuditFilter {
            server: Some("everything".into()),
            ..Default::default()
        })
        .await
        .expect("list");
    rows.reverse();
    let states: Vec<&str> = rows
        .iter()
        .filter(|r| r.event.kind == gatehouse_host::AuditKind::Connection)
        .filter_map(|r| r.event.detail["state"].as_str())
        .collect();
    let connected = states
        .iter()
        .position(|s| *s == "connected")
        .unwrap_or_else(|| panic!("the connection is on record: {states:?}"));
    assert!(
        states[connected..].contains(&"stopped"),
        "and, after it, the stop: {states:?}"
    );
    assert!(
        states.windows(2).all(|w| w[0] != w[1]),
        "only changes of state are recorded: {states:?}"
    );
    let row = rows
        .iter()
        .find(|r| r.event.detail["state"] == "connected")
        .expect("the connected row");
    assert_eq!(row.event.detail["era"], "legacy", "{:?}", row.event.detail);
    assert_eq!(row.event.detail["protocolVersion"], "2025-11-25");
    reopened.shutdown().await;
}

/// A server that sends `notifications/tools/list_changed` in a storm after every listing, its
/// tool changed each time (a nonce in `_meta`): it is listed at most once per interval, and the
/// definitions kept of its tool stay within their cap.
#[tokio::test]
async fn a_list_changed_storm_is_listed_once_per_interval_and_its_history_stays_capped() {
    use std::time::Duration;
    const LISTINGS: usize = 25;
    let every = Duration::from_millis(100);
    let dir = tempfile::tempdir().expect("temp dir");
    let times = dir.path().join("listings.txt");
    let host = gatehouse_host::Host::open(gatehouse_host::HostOptions {
        data_dir: Some(dir.path().to_path_buf()),
        live_sessions: true,
        relist_every: Some(every),
        ..Default::default()
    })
    .await
    .expect("open");
    let source = support::scripted_source(&format!(
        r#"
import time
handshake({{"tools": {{"listChanged": True}}}})
lists = 0
while True:
    m = read()
    if m.get("method") == "tools/list":
        lists += 1
        with open({times:?}, "a") as f:
            f.write(f"{{time.monotonic()}}\n")
        reply(m, {{"tools": [tool("t", _meta={{"nonce": lists}})]}})
        if lists < {LISTINGS}:
            for _ in range(20):
                send({{"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}})
    elif "id" in m:
        fail(m)
"#,
        times = times.display().to_string()
    ));
    host.add_server(stdio("storm", "python3", vec!["-c".into(), source]))
        .await
        .expect("add");
    let seen = support::wait::until("the storm's listings", Duration::from_secs(30), || async {
        let seen = std::fs::read_to_string(&times)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.parse::<f64>().ok())
            .collect::<Vec<_>>();
        if seen.len() >= LISTINGS {
            Ok(seen)
        } else {
            Err(seen)
        }
    })
    .await;
    assert_eq!(seen.len(), LISTINGS, "the storm's listings within 30 s");
    // Each listing starts only once the interval has passed since the previous one ended,
    // which was after the server received it.
    for pair in seen.windows(2) {
        let gap = pair[1] - pair[0];
        assert!(
            gap >= every.as_secs_f64(),
            "two listings {:.1} ms apart, less than the {every:?} interval: {seen:?}",
            gap * 1000.0
        );
    }
    let history = host
        .definition_history("storm", Some("t"))
        .await
        .expect("history");
    assert_eq!(
        history.len(),
        usize::try_from(gatehouse_host::policy::store::MAX_DEFINITIONS_PER_TOOL).expect("small"),
        "{LISTINGS} definitions were shown; only the newest are kept"
    );
    host.shutdown().await;
}
