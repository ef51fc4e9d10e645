//! Our engine: `gatehouse_mcp::Client` over its real stdio transport, as the host uses it.
//! It connects (spawn + `initialize`), lists the tools once as the host does (so results are
//! checked against the cached tool, as in production), then times `call_tool` one at a time
//! ([`sequential`]) or in windows of calls in flight together on the one connection
//! ([`pipelined`]).

use std::path::Path;
use std::sync::Arc;

use gatehouse_mcp::peer::RefusingHandler;
use gatehouse_mcp::{CallOptions, CallToolResult, Client, ClientOptions, StdioConfig};
use serde_json::{Value, json};

use crate::BoxError;
use crate::stats::{Samples, Throughput};
use crate::timed;

/// `calls` timed `tools/call` round trips after `warmup` untimed ones.
pub async fn sequential(
    echo: std::path::PathBuf,
    calls: usize,
    warmup: usize,
) -> Result<Samples, BoxError> {
    let client = connect(&echo).await?;
    let arguments = json!({"message": "hello"});
    let samples = timed::sequential(calls, warmup, || call(&client, &arguments)).await?;
    client.close().await?;
    Ok(samples)
}

/// `calls` calls in windows of `window` in flight at once, after `warmup` untimed ones.
pub async fn pipelined(
    echo: std::path::PathBuf,
    calls: usize,
    window: usize,
    warmup: usize,
) -> Result<Throughput, BoxError> {
    let client = connect(&echo).await?;
    let arguments = json!({"message": "hello"});
    let run = timed::windows(calls, window, warmup, || call(&client, &arguments)).await?;
    client.close().await?;
    Ok(run)
}

async fn connect(echo: &Path) -> Result<Client, BoxError> {
    let config = StdioConfig::new(echo.display().to_string());
    let client =
        Client::connect_stdio(&config, ClientOptions::default(), Arc::new(RefusingHandler))
            .await
            .map_err(|e| format!("crates/mcp could not connect to the echo server: {e}"))?;
    let tools = client.list_tools().await?;
    if !tools.items.iter().any(|t| t.name == "echo") {
        return Err("the echo server does not list `echo`".into());
    }
    Ok(client)
}

async fn call(client: &Client, arguments: &Value) -> Result<(), BoxError> {
    let result = client
        .call_tool("echo", Some(arguments.clone()), CallOptions::default())
        .await?;
    check(&result)
}

/// Checks that a result is the echo of `hello`.
pub fn check(result: &CallToolResult) -> Result<(), BoxError> {
    if result.is_error || result.content.first().and_then(|c| c.as_text()) != Some("hello") {
        return Err(format!("unexpected tools/call result: {result:?}").into());
    }
    Ok(())
}
