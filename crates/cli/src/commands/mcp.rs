//! `gatehouse mcp [--client NAME]`: the command an agent starts as its MCP server. It attaches to
//! the data directory's engine as a gateway face named NAME and, on Unix, hands the agent's stdin
//! and stdout to it (or else relays the agent's MCP messages and the gateway's as they are, one
//! per line; [`super::mcp_relay`]); the engine's gateway serves them through the gate
//! ([`gatehouse_host::gateway`]). It never runs a server itself. With no
//! engine running it starts one in the background and waits for it (at most [`ENGINE_START`]):
//! the app, hidden in the tray, where there is a display and the person chose to have the app
//! running (Gatehouse starts at login: `gatehouse autostart on`, or the Settings page), and
//! `gatehouse serve` otherwise (or when the app does not come up). It ends when the agent closes stdin (the engine then cancels what the
//! agent still had running) or when the engine stops (exit 1, saying so on stderr).

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use gatehouse_host::HostError;
use gatehouse_host::control::tunnel::{self, Tunnel};

use crate::finish::Finish;

/// How long an engine started here may take to open its socket.
const ENGINE_START: Duration = Duration::from_secs(30);
/// How often its socket is looked for meanwhile.
const ENGINE_LOOK: Duration = Duration::from_millis(50);

pub async fn run(data_dir: Option<PathBuf>, client: String) -> Result<Finish, HostError> {
    let offer = gatehouse_host::control::handoff::offerable();
    let tunnel = match tunnel::open(data_dir.as_deref(), &client, offer).await? {
        Some(tunnel) => tunnel,
        None => start_engine(data_dir.as_deref(), &client, offer).await?,
    };
    super::mcp_relay::relay(tunnel).await
}

/// Which engine to start for an agent: the app (its path) when the person has it start at
/// login and there is a display to show it on, else `gatehouse serve`.
fn engine_to_start(starts_at_login: bool, display: bool, app: Option<PathBuf>) -> Option<PathBuf> {
    app.filter(|_| starts_at_login && display)
}

/// The app to start for an agent, if the person chose to have it running and it can show.
fn chosen_app() -> Option<PathBuf> {
    let display = ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|var| std::env::var_os(var).is_some_and(|v| !v.is_empty()))
        || cfg!(any(target_os = "macos", windows));
    let starts_at_login = gatehouse_host::autostart::is_enabled().unwrap_or(false);
    let app = std::env::current_exe().ok().and_then(|exe| {
        super::autostart::app_path(std::env::var_os(super::autostart::APP_ENV), &exe).ok()
    });
    engine_to_start(starts_at_login, display, app)
}

/// Starts an engine (the app hidden in the tray, or `gatehouse serve`) in its own process group
/// (an agent's Ctrl-C does not reach it) and waits for its socket. An app that ends without
/// opening one (another app instance took the launch, or it could not start) is followed by
/// `gatehouse serve`.
async fn start_engine(
    data_dir: Option<&Path>,
    client: &str,
    offer_stdio: bool,
) -> Result<Tunnel, HostError> {
    let mut app = chosen_app();
    let mut engine = match &app {
        Some(path) => spawn_engine(path, data_dir, &["--hidden"], true)?,
        None => spawn_serve(data_dir)?,
    };
    let started = Instant::now();
    loop {
        if let Some(tunnel) = tunnel::open(data_dir, client, offer_stdio).await? {
            return Ok(tunnel);
        }
        // Refused: another engine won the data directory, and its socket comes next.
        if let Ok(Some(_)) = engine.try_wait()
            && app.take().is_some()
        {
            tracing::info!("the app did not come up for the agent; starting `gatehouse serve`");
            engine = spawn_serve(data_dir)?;
        }
        if started.elapsed() > ENGINE_START {
            return Err(HostError::EngineStopping(format!(
                "the engine started for this agent did not open its socket within {} s; see `gatehouse serve`",
                ENGINE_START.as_secs()
            )));
        }
        // A bounded poll, not synchronisation on an event: the socket is another process's, and
        // nothing tells this one when it appears.
        tokio::time::sleep(ENGINE_LOOK).await;
    }
}

fn spawn_serve(data_dir: Option<&Path>) -> Result<std::process::Child, HostError> {
    let exe = std::env::current_exe()
        .map_err(|e| HostError::io("cannot find the gatehouse program", e))?;
    spawn_engine(&exe, data_dir, &["serve"], false)
}

/// Starts `program` with the data directory (`--data-dir` before `args` for the CLI, after
/// them for the app), its output discarded, in a process group of its own.
fn spawn_engine(
    program: &Path,
    data_dir: Option<&Path>,
    args: &[&str],
    is_app: bool,
) -> Result<std::process::Child, HostError> {
    let mut command = std::process::Command::new(program);
    if !is_app && let Some(dir) = data_dir {
        command.arg("--data-dir").arg(dir);
    }
    command.args(args);
    if is_app && let Some(dir) = data_dir {
        command.arg("--data-dir").arg(dir);
    }
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    command
        .spawn()
        .map_err(|e| HostError::io(format!("cannot start {}", program.display()), e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_app_only_when_chosen_and_it_can_show() {
        let app = || Some(PathBuf::from("/usr/bin/gatehouse-app"));
        assert_eq!(engine_to_start(true, true, app()), app());
        assert_eq!(
            engine_to_start(false, true, app()),
            None,
            "not chosen: serve"
        );
        assert_eq!(
            engine_to_start(true, false, app()),
            None,
            "no display: serve"
        );
        assert_eq!(engine_to_start(true, true, None), None, "no app: serve");
    }
}
