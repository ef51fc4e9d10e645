//! A client dropped without `close()` (a runner stopped mid-connect, or aborted after its stop
//! timeout) must stop every task it started: on each transport, 20 clients are connected to
//! server-everything and dropped, and the runtime's count of live tasks must come back to where
//! it was before them. A legacy SSE server that announces an endpoint that is no URL must not
//! leave the event stream's reader behind either.

use crate::support;

use std::time::Duration;

use crate::support::HttpServer;
use gatehouse_mcp::{Client, HttpMode, McpError};

/// How many clients each test drops.
const CLIENTS: usize = 20;

/// How many are connected at once (the machine running the tests may be small).
const BATCH: usize = 5;

/// The tasks alive in this test's runtime.
fn alive() -> usize {
    tokio::runtime::Handle::current()
        .metrics()
        .num_alive_tasks()
}

/// Waits up to 10 s for the live task count to fall back to `baseline`.
async fn settle_to(baseline: usize, clients: &str) -> usize {
    let step = format!("the tasks of {clients} dropped without close() end");
    support::wait::until(&step, Duration::from_secs(10), || async {
        let alive = alive();
        if alive <= baseline {
            Ok(alive)
        } else {
            Err(format!("{} tasks left running", alive - baseline))
        }
    })
    .await
}

/// Connects `CLIENTS` clients with `connect`, checks each is live, and drops them all.
async fn connect_and_drop<F, Fut>(connect: F)
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = Result<Client, McpError>>,
{
    for _ in 0..CLIENTS / BATCH {
        let clients = futures_util::future::join_all((0..BATCH).map(|_| connect())).await;
        for client in clients {
            let client = client.expect("connect");
            client
                .peer()
                .request("ping", None, Duration::from_secs(10))
                .await
                .expect("ping");
            drop(client);
        }
    }
}

async fn assert_no_task_survives(baseline: usize, clients: &str) {
    let settled = settle_to(baseline, clients).await;
    assert!(
        settled <= baseline,
        "{clients} dropped without close() left {} tasks running",
        settled - baseline
    );
}

#[tokio::test]
async fn dropped_stdio_clients_leave_no_task() {
    let config = support::everything();
    let baseline = alive();
    connect_and_drop(|| support::connect_stdio(&config)).await;
    assert_no_task_survives(baseline, "20 stdio clients").await;
}

#[tokio::test]
async fn dropped_streamable_http_clients_leave_no_task() {
    let server = HttpServer::everything("streamableHttp").await;
    let config = server.config("/mcp");
    let baseline = alive();
    connect_and_drop(|| support::connect_http(&config, HttpMode::StreamableHttp)).await;
    assert_no_task_survives(baseline, "20 Streamable HTTP clients").await;
}

#[tokio::test]
async fn dropped_legacy_sse_clients_leave_no_task() {
    let server = HttpServer::everything("sse").await;
    let config = server.config("/sse");
    let baseline = alive();
    connect_and_drop(|| support::connect_http(&config, HttpMode::Sse)).await;
    assert_no_task_survives(baseline, "20 legacy SSE clients").await;
}

#[tokio::test]
async fn clients_dropped_mid_connect_leave_no_task() {
    let http = HttpServer::everything("streamableHttp").await;
    let sse = HttpServer::everything("sse").await;
    let (http_config, sse_config) = (http.config("/mcp"), sse.config("/sse"));
    let baseline = alive();
    for delay in [1u64, 5, 20, 50] {
        let wait = Duration::from_millis(delay);
        let streamable = support::connect_http(&http_config, HttpMode::StreamableHttp);
        let _ = tokio::time::timeout(wait, streamable).await;
        let legacy = support::connect_http(&sse_config, HttpMode::Sse);
        let _ = tokio::time::timeout(wait, legacy).await;
    }
    assert_no_task_survives(baseline, "8 half-connected HTTP clients").await;
}

#[tokio::test]
async fn an_unusable_sse_endpoint_stops_the_event_stream_reader() {
    let server = HttpServer::faults("bad-endpoint").await;
    let config = server.config("/sse");
    let baseline = alive();
    for _ in 0..3 {
        let refused = support::connect_http(&config, HttpMode::Sse).await;
        assert!(
            refused
                .as_ref()
                .is_err_and(|e| e.to_string().contains("invalid endpoint")),
            "an endpoint that is no URL is refused: {refused:?}"
        );
    }
    assert_no_task_survives(baseline, "3 refused legacy SSE connections").await;
}
