//! Many servers at once: a host with live sessions (as the app runs) and `N` stdio servers (the
//! echo server, 100 for the published figures) registered, then started together
//! ([`Host::start`]), timed until every one is connected; then stopped together
//! ([`Host::shutdown`], the app's way out), timed until it returns. Afterwards no process of
//! the fleet may be left: each server runs with a marker in its environment, and every process
//! whose environment holds it is counted (from `/proc`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use gatehouse_host::{EnvVar, Host, HostOptions, ServerInput, ServerSpec, ServerStatus};
use serde::Serialize;

use crate::BoxError;
use crate::memory_secrets::MemorySecrets;

/// How long the fleet may take to connect before the run fails.
const READY_LIMIT: Duration = Duration::from_secs(120);

/// What the fleet section measured.
#[derive(Debug, Clone, Serialize)]
pub struct Fleet {
    pub servers: usize,
    /// From `start` until every server is connected.
    pub ready_ms: f64,
    /// `shutdown`, from call to return.
    pub stopped_ms: f64,
    /// Processes of the fleet still running once `shutdown` returned.
    pub survivors: usize,
}

/// Starts `servers` echo servers on one host, then stops them.
pub async fn run(echo: std::path::PathBuf, servers: usize) -> Result<Fleet, BoxError> {
    let dir = tempfile::Builder::new()
        .prefix("gatehouse-bench-fleet-")
        .tempdir()?;
    let marker = format!("fleet-{}", std::process::id());
    let host = Host::open(HostOptions {
        data_dir: Some(dir.path().to_path_buf()),
        live_sessions: true,
        secrets: Some(Arc::new(MemorySecrets::default())),
        ..HostOptions::default()
    })
    .await?;
    for i in 0..servers {
        let marked = EnvVar {
            key: "GATEHOUSE_BENCH_FLEET".into(),
            value: marker.clone(),
            secret: false,
        };
        host.add_server(echo_server(&echo, i, vec![marked])).await?;
    }

    let started = Instant::now();
    host.start().await?;
    loop {
        let views = host.list_servers().await?;
        if let Some(failed) = views.iter().find_map(|v| match &v.status {
            ServerStatus::Failed { message } => Some(format!("{}: {message}", v.config.name)),
            _ => None,
        }) {
            return Err(format!("a server of the fleet failed: {failed}").into());
        }
        let ready = views
            .iter()
            .filter(|v| matches!(v.status, ServerStatus::Connected { .. }))
            .count();
        if ready == servers {
            break;
        }
        if started.elapsed() > READY_LIMIT {
            return Err(
                format!("{ready} of {servers} servers connected after {READY_LIMIT:?}").into(),
            );
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let ready_ms = started.elapsed().as_secs_f64() * 1000.0;

    let stopping = Instant::now();
    host.shutdown().await;
    let stopped_ms = stopping.elapsed().as_secs_f64() * 1000.0;
    let survivors = processes_with(&marker);
    Ok(Fleet {
        servers,
        ready_ms,
        stopped_ms,
        survivors,
    })
}

/// The echo server `echo-{i}` as a stdio server with `env`.
pub fn echo_server(echo: &std::path::Path, i: usize, env: Vec<EnvVar>) -> ServerInput {
    ServerInput {
        name: format!("echo-{i}"),
        enabled: true,
        roots: Vec::new(),
        spec: ServerSpec::Stdio {
            command: echo.display().to_string(),
            args: Vec::new(),
            env,
            cwd: None,
            stop: Default::default(),
        },
    }
}

/// How many running processes have `GATEHOUSE_BENCH_FLEET=<marker>` in their environment.
fn processes_with(marker: &str) -> usize {
    let wanted = format!("GATEHOUSE_BENCH_FLEET={marker}");
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    entries
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().parse::<u32>().is_ok())
        .filter(|e| {
            std::fs::read(e.path().join("environ")).is_ok_and(|environ| {
                environ
                    .split(|b| *b == 0)
                    .any(|var| var == wanted.as_bytes())
            })
        })
        .count()
}
