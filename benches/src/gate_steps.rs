//! Where the gate's time goes: each step the gate takes for one tool call, timed on its own
//! through the same public APIs the gate uses, on a host set up as for the gated row
//! ([`Gated`]). The steps, in the gate's order (`crates/host/src/gate/mod.rs`):
//!
//! 1. what decides the server's requests (its rules, trust setting and configuration version,
//!    kept by the gate), checked current with one read of the store's change counter, and its
//!    secret values known to the audit log (`learn_secrets`);
//! 2. the tool's definition hash, as the gate finds it: computed once per definition a
//!    connection listed, then kept with it (an uncounted row times computing it: RFC 8785 JSON
//!    + SHA-256 of the cached definition);
//! 3. the policy's evaluation (no I/O);
//! 4. the request and decision rows, committed in one transaction;
//! 5. the call itself on the engine (`Client::call_tool`), which the gate wraps;
//! 6. the outcome row, committed in a second transaction.
//!
//! For comparison, two rows time what step 1 saves while nothing changes: reading the rules and
//! the trust setting from SQLite through the pool (not part of the gate's sum).
//!
//! The sum of the gate's steps is what it adds per call when the steps run one after the other.

use std::future::Future;
use std::time::{Duration, Instant};

use gatehouse_host::gate::definition::definition_hash;
use gatehouse_host::policy::{PolicyInput, evaluate};
use gatehouse_host::{AuditEvent, AuditKind, Source};
use gatehouse_mcp::CallOptions;
use serde::Serialize;
use serde_json::{Value, json};

use crate::BoxError;
use crate::gated::Gated;
use crate::stats::{Samples, Summary};

/// One step's timings.
#[derive(Debug, Clone, Serialize)]
pub struct Step {
    pub step: &'static str,
    /// Whether it is part of what the gate adds (the engine call is not).
    pub gate: bool,
    pub p50_us: f64,
    pub mean_us: f64,
}

/// Times each step `iterations` times (after a few untimed rounds).
pub async fn measure(echo: std::path::PathBuf, iterations: usize) -> Result<Vec<Step>, BoxError> {
    let gated = Gated::open(&echo).await?;
    let steps = steps(&gated, iterations.max(1)).await;
    gated.close().await?;
    steps
}

async fn steps(gated: &Gated, n: usize) -> Result<Vec<Step>, BoxError> {
    let host = &gated.host;
    let id = gated.connection.server_id().to_owned();
    let client = gated.connection.client();
    let tool = client
        .cached_tool("echo")
        .ok_or("the connection has not listed `echo`")?;
    let hash = definition_hash(&tool);
    let arguments = json!({"message": "hello"});
    let rules = host.policy().rules_for(&id).await?;
    let base = AuditEvent {
        server: Some("echo".into()),
        source: Some("user".into()),
        method: Some("tools/call".into()),
        tool: Some("echo".into()),
        correlation: Some("00000000-0000-4000-8000-000000000000".into()),
        transport: Some(client.transport_kind().to_owned()),
        ..AuditEvent::default()
    };
    let received = AuditEvent {
        kind: AuditKind::RequestReceived,
        detail: json!({"arguments": arguments, "definitionHash": hash, "annotations": null}),
        ..base.clone()
    };
    let decided = AuditEvent {
        kind: AuditKind::Decision,
        decision: Some("allow".into()),
        detail: json!({"reason": "allowed by a rule", "rule": gated.rule}),
        ..base.clone()
    };
    let finished = AuditEvent {
        kind: AuditKind::CallFinished,
        duration_ms: Some(0),
        detail: json!({"isError": false, "content": [{"type": "text", "text": "hello"}],
                       "structuredContent": null, "schemaProblem": null}),
        ..base
    };

    let mut steps = Vec::new();
    steps.push(
        step(
            "kept rules checked current, secrets known",
            true,
            n,
            || async { host.gate().learn_secrets(&id).await },
        )
        .await?,
    );
    steps.push(
        step("definition hash of the tool", true, n, || async {
            std::hint::black_box(host.gate().definition_hash(&tool));
            Ok(())
        })
        .await?,
    );
    steps.push(
        step(
            "(uncached) hash the tool's definition",
            false,
            n,
            || async {
                std::hint::black_box(definition_hash(&tool));
                Ok(())
            },
        )
        .await?,
    );
    steps.push(
        step(
            "(uncached) read the rules through the pool",
            false,
            n,
            || async { host.policy().rules_for(&id).await.map(drop) },
        )
        .await?,
    );
    steps.push(
        step("(uncached) read the trust setting", false, n, || async {
            host.policy().trusts_read_only(&id).await.map(drop)
        })
        .await?,
    );
    steps.push(
        step("evaluate the policy", true, n, || async {
            let verdict = evaluate(
                &rules,
                &PolicyInput {
                    source: Source::User,
                    caller: None,
                    server: &id,
                    tool: "echo",
                    arguments: Some(&arguments),
                    annotations: &Value::Null,
                    definition_hash: Some(&hash),
                    trust_read_only: false,
                },
            );
            std::hint::black_box(verdict);
            Ok(())
        })
        .await?,
    );
    steps.push(
        step("commit request + decision rows", true, n, || async {
            host.audit()
                .append_all(vec![received.clone(), decided.clone()])
                .await
                .map(drop)
        })
        .await?,
    );
    steps.push(
        step("the call on the engine", false, n, || async {
            let result = client
                .call_tool("echo", Some(arguments.clone()), CallOptions::default())
                .await
                .map_err(gatehouse_host::HostError::from)?;
            std::hint::black_box(result);
            Ok(())
        })
        .await?,
    );
    steps.push(
        step("commit the outcome row", true, n, || async {
            host.audit().append(finished.clone()).await.map(drop)
        })
        .await?,
    );
    Ok(steps)
}

/// Times `run` `n` times, after `n / 10` untimed runs.
async fn step<F, Fut>(
    name: &'static str,
    gate: bool,
    n: usize,
    mut run: F,
) -> Result<Step, BoxError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = gatehouse_host::Result<()>>,
{
    for _ in 0..n / 10 {
        run().await?;
    }
    let mut samples = Samples::with_capacity(n);
    for _ in 0..n {
        let t0 = Instant::now();
        run().await?;
        samples.push(t0.elapsed());
    }
    samples.elapsed = Duration::ZERO;
    let summary = Summary::of(&samples).ok_or("no step was timed")?;
    Ok(Step {
        step: name,
        gate,
        p50_us: summary.p50_us,
        mean_us: summary.mean_us,
    })
}
