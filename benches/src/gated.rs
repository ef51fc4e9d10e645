//! The engine through the gate, as the CLI and the app call tools: a real [`Host`] on a fresh
//! data directory (its SQLite store, an in-memory keyring), the echo server registered as a stdio
//! server, an allow rule for its `echo` tool made for the definition the server lists, and each
//! call made with [`ServerConnection::call_tool`] from [`Source::User`]. Every call is decided
//! by the policy from the stored rules and commits its audit rows (request, decision, outcome)
//! before it returns.
//!
//! After each run the audit log is checked: three rows per call, and an intact chain.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use gatehouse_host::gate::definition::definition_hash;
use gatehouse_host::policy::{Effect, Rule};
use gatehouse_host::server_requests::HostHandler;
use gatehouse_host::{
    AuditFilter, CallOutcome, Host, HostOptions, ServerConnection, ServerInput, ServerSpec, Source,
    ToolCall, VerifyReport,
};
use gatehouse_mcp::CallOptions;
use serde_json::{Value, json};

use crate::BoxError;
use crate::cpu::CpuClock;
use crate::engine;
use crate::memory_secrets::MemorySecrets;
use crate::stats::Samples;
use crate::timed;

/// How many audit rows one call through the gate writes.
pub const ROWS_PER_CALL: u64 = 3;

/// A host with the echo server registered, allowed and connected.
pub struct Gated {
    pub host: Host,
    pub connection: ServerConnection,
    /// The allow rule's id, which must decide every call.
    pub rule: String,
    /// Audit rows written before the first call (connection events, if any).
    rows_before: u64,
    // Dropped last: the data directory.
    _dir: tempfile::TempDir,
}

impl Gated {
    /// Opens a host on a fresh temporary data directory and connects the echo server.
    pub async fn open(echo: &Path) -> Result<Gated, BoxError> {
        let dir = tempfile::Builder::new()
            .prefix("gatehouse-bench-gate-")
            .tempdir()?;
        let host = Host::open(HostOptions {
            data_dir: Some(dir.path().to_path_buf()),
            live_sessions: false,
            secrets: Some(Arc::new(MemorySecrets::default())),
            ..HostOptions::default()
        })
        .await?;
        let server = host
            .add_server(ServerInput {
                name: "echo".into(),
                enabled: true,
                roots: Vec::new(),
                spec: ServerSpec::Stdio {
                    command: echo.display().to_string(),
                    args: Vec::new(),
                    env: Vec::new(),
                    cwd: None,
                    stop: Default::default(),
                },
            })
            .await?;
        let connection = host
            .connect(&server.config.id, |config| {
                Arc::new(HostHandler::for_config(config))
            })
            .await?;
        let tools = connection.client().list_tools().await?;
        let tool = tools
            .items
            .iter()
            .find(|t| t.name == "echo")
            .ok_or("the echo server does not list `echo`")?;
        host.gate()
            .tools_listed(connection.server_id(), &tools.items)
            .await?;
        let rule = host
            .policy()
            .add(Rule {
                id: String::new(),
                server: Some(connection.server_id().to_owned()),
                tool: Some("echo".into()),
                argument: None,
                effect: Effect::Allow,
                definition_hash: Some(definition_hash(tool)),
                source: None,
                client: None,
            })
            .await?;
        let rows_before = newest_seq(&host).await?;
        Ok(Gated {
            host,
            connection,
            rule: rule.id,
            rows_before,
            _dir: dir,
        })
    }

    /// One `echo` call through the gate, checked.
    pub async fn call(&self) -> Result<(), BoxError> {
        let call = ToolCall {
            tool: "echo".into(),
            arguments: Some(json!({"message": "hello"})),
            source: Source::User,
            caller: None,
        };
        let outcome = self
            .connection
            .call_tool(call, CallOptions::default(), std::future::pending())
            .await?;
        match outcome {
            CallOutcome::Done(result) => engine::check(&result),
            CallOutcome::Cancelled => Err("a call that was never cancelled was cancelled".into()),
        }
    }

    /// Checks that `calls` calls left their rows, that the allow rule decided them, and that
    /// the chain is intact.
    pub async fn check_audit(&self, calls: usize) -> Result<(), BoxError> {
        let expected = self.rows_before + u64::try_from(calls)? * ROWS_PER_CALL;
        // The newest decision: with several callers, the newest rows may all be outcomes.
        let newest = self
            .host
            .audit()
            .list(&AuditFilter {
                decision: Some("allow".into()),
                limit: Some(1),
                ..AuditFilter::default()
            })
            .await?;
        let decided_by = newest
            .first()
            .map(|r| r.event.detail.get("rule").cloned().unwrap_or(Value::Null));
        if decided_by.as_ref().and_then(Value::as_str) != Some(self.rule.as_str()) {
            return Err(format!(
                "the last call was not decided by the allow rule {}: {decided_by:?}",
                self.rule
            )
            .into());
        }
        match self.host.audit().verify().await? {
            VerifyReport::Intact { rows } if rows == expected => Ok(()),
            VerifyReport::Intact { rows } => {
                Err(format!("{calls} calls left {rows} audit rows in all, not {expected}").into())
            }
            VerifyReport::Broken { seq, reason } => {
                Err(format!("the audit chain broke at row {seq}: {reason}").into())
            }
            VerifyReport::Unverified { reason, .. } => {
                Err(format!("the audit chain is not verified: {reason}").into())
            }
        }
    }

    pub async fn close(self) -> Result<(), BoxError> {
        self.connection.close(Ok(())).await?;
        self.host.store().close().await;
        Ok(())
    }
}

/// The `seq` of the newest audit row (the row count: `seq` has no gaps), 0 for none.
pub async fn newest_seq(host: &Host) -> Result<u64, BoxError> {
    let newest = host
        .audit()
        .list(&AuditFilter {
            limit: Some(1),
            ..AuditFilter::default()
        })
        .await?;
    Ok(newest
        .first()
        .map_or(0, |r| u64::try_from(r.seq).unwrap_or(0)))
}

/// `calls` timed calls through the gate after `warmup` untimed ones, one at a time.
pub async fn sequential(echo: PathBuf, calls: usize, warmup: usize) -> Result<Samples, BoxError> {
    let gated = Gated::open(&echo).await?;
    let samples = timed::sequential(calls, warmup, || gated.call()).await?;
    gated.check_audit(calls + warmup).await?;
    gated.close().await?;
    Ok(samples)
}

/// `callers` tasks calling through the gate on one connection at once, `calls_each` timed calls
/// each after `warmup` untimed ones each: every sample is one call's latency, and calls/s is all
/// timed calls over the wall time from the first to the last.
pub async fn concurrent(
    echo: PathBuf,
    callers: usize,
    calls_each: usize,
    warmup: usize,
) -> Result<Samples, BoxError> {
    let gated = Arc::new(Gated::open(&echo).await?);
    let run = |calls: usize| {
        let tasks: Vec<_> = (0..callers)
            .map(|_| {
                let gated = gated.clone();
                tokio::spawn(async move {
                    let mut latencies = Vec::with_capacity(calls);
                    for _ in 0..calls {
                        let t0 = Instant::now();
                        gated.call().await?;
                        latencies.push(t0.elapsed());
                    }
                    Ok::<_, BoxError>(latencies)
                })
            })
            .collect();
        async move {
            let mut all = Vec::new();
            for task in tasks {
                all.extend(task.await.map_err(|e| format!("a caller failed: {e}"))??);
            }
            Ok::<_, BoxError>(all)
        }
    };
    run(warmup).await?;
    let mut samples = Samples::with_capacity(callers * calls_each);
    let cpu = CpuClock::now()?;
    let started = Instant::now();
    for latency in run(calls_each).await? {
        samples.push(latency);
    }
    samples.elapsed = started.elapsed();
    samples.cpu = Some(cpu.elapsed()?);
    gated.check_audit(callers * (calls_each + warmup)).await?;
    match Arc::into_inner(gated) {
        Some(gated) => gated.close().await?,
        None => return Err("a caller still holds the connection".into()),
    }
    Ok(samples)
}
