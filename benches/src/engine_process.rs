//! A real `gatehouse serve` process for the benchmark's engine and gateway sections, on a data
//! directory prepared in this process: the echo server registered as `echo` with a rule allowing
//! its `echo` tool (for every source, so the gateway's calls too). It is waited for until its
//! socket answers and its echo server is connected, stopped with SIGTERM as a person stops it,
//! and killed if dropped.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use gatehouse_host::control::client::ControlClient;
use gatehouse_host::control::protocol::FaceKind;
use gatehouse_host::policy::{Effect, Rule};
use gatehouse_host::{Host, HostOptions, ServerStatus};

use crate::BoxError;
use crate::cpu;

/// How long the engine and its echo server may take to be ready.
pub const READY_LIMIT: Duration = Duration::from_secs(60);
/// How long the engine may take to stop on SIGTERM before it is killed.
const STOP_LIMIT: Duration = Duration::from_secs(10);

/// A host on `data_dir` as `gatehouse serve` opens one (live or not), with the OS keyring.
pub async fn open(data_dir: &Path, live: bool) -> Result<Host, BoxError> {
    Ok(Host::open(HostOptions {
        data_dir: Some(data_dir.to_path_buf()),
        live_sessions: live,
        ..HostOptions::default()
    })
    .await?)
}

/// Registers the echo server as `echo` and allows its `echo` tool; returns the rule's id.
pub async fn prepare(host: &Host, echo: &Path) -> Result<String, BoxError> {
    let mut server = crate::fleet::echo_server(echo, 0, Vec::new());
    server.name = "echo".into();
    let server = host.add_server(server).await?;
    let rule = host
        .policy()
        .add(Rule {
            id: String::new(),
            server: Some(server.config.id),
            tool: Some("echo".into()),
            argument: None,
            effect: Effect::Allow,
            definition_hash: None,
            source: None,
            client: None,
        })
        .await?;
    Ok(rule.id)
}

/// `gatehouse serve` on the data directory; SIGTERM (then SIGKILL) when stopped or dropped.
pub struct EngineProcess {
    child: Option<Child>,
    log: PathBuf,
}

impl EngineProcess {
    pub fn start(gatehouse: &Path, data_dir: &Path) -> Result<EngineProcess, BoxError> {
        let log = data_dir.with_extension("log");
        let child = Command::new(gatehouse)
            .arg("--data-dir")
            .arg(data_dir)
            .arg("serve")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log)?)
            .spawn()?;
        Ok(EngineProcess {
            child: Some(child),
            log,
        })
    }

    pub fn pid(&self) -> u32 {
        self.child.as_ref().map_or(0, Child::id)
    }

    /// The engine's CPU time so far.
    pub fn cpu(&self) -> Result<Duration, BoxError> {
        Ok(cpu::of_process(self.pid())?.1)
    }

    /// Attaches once the socket answers and the engine's echo server is connected.
    pub async fn attach(
        &self,
        data_dir: &Path,
        started: Instant,
    ) -> Result<ControlClient, BoxError> {
        loop {
            if let Some(client) =
                ControlClient::connect(Some(data_dir), FaceKind::Cli, "gatehouse-bench").await?
            {
                let status = client.status().await?;
                match status.servers.first().map(|s| &s.status) {
                    Some(ServerStatus::Connected { .. }) => return Ok(client),
                    Some(ServerStatus::Failed { message }) => {
                        return Err(format!("the engine's echo server failed: {message}").into());
                    }
                    _ => {}
                }
            }
            if !self.running() {
                return Err(format!("gatehouse serve exited: {}", self.log_tail()).into());
            }
            if started.elapsed() > READY_LIMIT {
                return Err(format!(
                    "the engine and its echo server not ready after {READY_LIMIT:?}: {}",
                    self.log_tail()
                )
                .into());
            }
            // A bounded poll of another process (the engine and its server): nothing tells
            // this one when they are ready.
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    pub fn running(&self) -> bool {
        cpu::of_process(self.pid()).is_ok_and(|(state, _)| state != 'Z')
    }

    pub fn log_tail(&self) -> String {
        let log = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = log.lines().collect();
        lines[lines.len().saturating_sub(5)..].join(" / ")
    }

    /// SIGTERM, as a person stops it; an engine that does not exit in time is killed.
    pub async fn stop(mut self) -> Result<(), BoxError> {
        let Some(mut child) = self.child.take() else {
            return Ok(());
        };
        let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id())?);
        let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM);
        let deadline = Instant::now() + STOP_LIMIT;
        while Instant::now() < deadline {
            if let Some(status) = child.try_wait()? {
                return if status.success() {
                    Ok(())
                } else {
                    Err(format!("gatehouse serve exited with {status}: {}", self.log_tail()).into())
                };
            }
            // A bounded poll for the engine's exit, within its stop grace.
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let _ = child.kill();
        let _ = child.wait();
        Err(format!("gatehouse serve did not stop within {STOP_LIMIT:?} of SIGTERM").into())
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
