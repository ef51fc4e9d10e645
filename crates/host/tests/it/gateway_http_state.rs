//! What the gateway's HTTP endpoint does in the engine's process, as the window shows it: off,
//! listening on the port the person set, moved to a new port, and a port another program holds
//! reported with the reason instead of silently not served.

use std::sync::Arc;
use std::time::Duration;

use gatehouse_host::gateway::http::HttpGateway;
use gatehouse_host::gateway::http::settings::HttpServing;

use crate::support::open_host;
use crate::support::wait::until;

const WITHIN: Duration = Duration::from_secs(10);

/// A port free now (the listener that found it is closed).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

async fn serving_becomes(host: &gatehouse_host::Host, step: &str, wanted: HttpServing) {
    until(step, WITHIN, || async {
        let now = host
            .gateway_http_endpoint()
            .await
            .expect("endpoint")
            .serving;
        if now == wanted { Ok(()) } else { Err(now) }
    })
    .await;
}

#[tokio::test]
async fn the_endpoint_says_whether_it_listens_and_why_not() {
    let dir = tempfile::tempdir().expect("tempdir");
    let host = Arc::new(open_host(dir.path(), false).await);
    let gateway = HttpGateway::start(host.clone());
    assert_eq!(host.http_serving(), HttpServing::Off, "off by default");

    let port = free_port();
    host.set_gateway_http(true, Some(port)).await.expect("on");
    serving_becomes(
        &host,
        "listening on the set port",
        HttpServing::Listening { port },
    )
    .await;
    let endpoint = host.gateway_http_endpoint().await.expect("endpoint");
    assert_eq!(endpoint.url, format!("http://127.0.0.1:{port}/mcp"));

    // A port another program holds: the reason, not silence.
    let held = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let taken = held.local_addr().expect("addr").port();
    host.set_gateway_http(true, Some(taken))
        .await
        .expect("move");
    let failed = until("the held port reported", WITHIN, || async {
        match host.http_serving() {
            HttpServing::Failed { port, error } if port == taken => Ok(error),
            other => Err(other),
        }
    })
    .await;
    assert!(!failed.is_empty(), "the reason is given");
    drop(held);

    host.set_gateway_http(false, None).await.expect("off");
    serving_becomes(&host, "off again", HttpServing::Off).await;
    gateway.stop().await;
}
