//! Our engine: `gatehouse_mcp::Client` over its real stdio transport, as the host uses it.
//! It connects (spawn + `initialize`), lists the tools once as the host does (so results are
//! checked against the cached tool, as in production), then times `call_tool` one at a time.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use gatehouse_mcp::peer::RefusingHandler;
use gatehouse_mcp::{CallOptions, Client, ClientOptions, StdioConfig};
use serde_json::json;

use crate::BoxError;
use crate::stats::Samples;

/// `calls` timed `tools/call` round trips after `warmup` untimed ones.
pub async fn run(echo: PathBuf, calls: usize, warmup: usize) -> Result<Samples, BoxError> {
    let config = StdioConfig::new(echo.display().to_string());
    let client =
        Client::connect_stdio(&config, ClientOptions::default(), Arc::new(RefusingHandler))
            .await
            .map_err(|e| format!("crates/mcp could not connect to the echo server: {e}"))?;
    let tools = client.list_tools().await?;
    if !tools.items.iter().any(|t| t.name == "echo") {
        return Err("the echo server does not list `echo`".into());
    }
    let arguments = json!({"message": "hello"});

    let mut samples = Samples::with_capacity(calls);
    let mut started = Instant::now();
    for n in 0..warmup + calls {
        if n == warmup {
            started = Instant::now();
        }
        let t0 = Instant::now();
        let result = client
            .call_tool("echo", Some(arguments.clone()), CallOptions::default())
            .await?;
        let elapsed = t0.elapsed();
        if result.is_error || result.content.first().and_then(|c| c.as_text()) != Some("hello") {
            return Err(format!("unexpected tools/call result: {result:?}").into());
        }
        if n >= warmup {
            samples.push(elapsed);
        }
    }
    samples.elapsed = started.elapsed();

    client.close().await?;
    Ok(samples)
}
