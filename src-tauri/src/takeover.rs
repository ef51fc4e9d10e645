//! Starting the app while `gatehouse serve` runs on the same data directory: the app says so
//! and offers to take over. Taking over stops the headless engine the way SIGTERM always does
//! (attached requests fail with a clear error, its servers stop gracefully, its socket and lock
//! go), waits for its lock, and the app's engine starts the servers again. Nothing of the
//! database is lost; the agents' `gatehouse mcp` attach to the app's engine next.

use std::path::Path;
use std::time::{Duration, Instant};

use gatehouse_host::HostError;
use gatehouse_host::control::lock::{EngineInfo, EngineKind, EngineLock};

/// How long the headless engine gets to stop (its servers' grace periods included).
const STOP_WAIT: Duration = Duration::from_secs(30);
/// How often its lock is tried meanwhile.
const RETRY: Duration = Duration::from_millis(100);

/// `--take-over` on the app's command line: take over from a running `gatehouse serve` without
/// asking.
pub fn take_over_arg(args: impl IntoIterator<Item = String>) -> bool {
    args.into_iter().any(|arg| arg == "--take-over")
}

/// Takes the engine lock for the app. If `gatehouse serve` holds it, `agree` is asked (with the
/// running engine's description) whether to stop it and take over.
pub fn acquire(
    data_dir: Option<&Path>,
    agree: impl FnOnce(&EngineInfo) -> bool,
) -> Result<EngineLock, HostError> {
    let refused = match EngineLock::acquire(data_dir, EngineKind::App) {
        Err(HostError::EngineRunning(message)) => message,
        other => return other,
    };
    let Some(running) = EngineLock::described(data_dir)?.filter(|i| i.kind == EngineKind::Serve)
    else {
        return Err(HostError::EngineRunning(refused));
    };
    if !agree(&running) {
        return Err(HostError::EngineRunning(refused));
    }
    stop(&running)?;
    let deadline = Instant::now() + STOP_WAIT;
    loop {
        match EngineLock::acquire(data_dir, EngineKind::App) {
            Err(HostError::EngineRunning(message)) if Instant::now() < deadline => {
                tracing::debug!("waiting for the headless engine to stop: {message}");
                // A bounded poll, not synchronisation on an event: the lock is another
                // process's, and nothing tells this one when it is let go.
                std::thread::sleep(RETRY);
            }
            Err(HostError::EngineRunning(message)) => {
                return Err(HostError::EngineRunning(format!(
                    "`gatehouse serve` (pid {}) did not stop within {} s: {message}",
                    running.pid,
                    STOP_WAIT.as_secs()
                )));
            }
            other => return other,
        }
    }
}

/// Asks the headless engine to stop (SIGTERM, as `kill PID` would).
#[cfg(unix)]
fn stop(running: &EngineInfo) -> Result<(), HostError> {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;
    let pid = i32::try_from(running.pid)
        .map_err(|_| HostError::EngineRunning(format!("odd engine pid {}", running.pid)))?;
    tracing::info!("taking over from `gatehouse serve` pid {pid}");
    kill(Pid::from_raw(pid), Signal::SIGTERM).map_err(|e| {
        HostError::EngineRunning(format!(
            "cannot stop `gatehouse serve` (pid {pid}): {e}; {}",
            running.how_to_stop()
        ))
    })
}

/// Elsewhere the person stops it (the message says how).
#[cfg(not(unix))]
fn stop(running: &EngineInfo) -> Result<(), HostError> {
    Err(HostError::EngineRunning(running.how_to_stop()))
}

/// Asks the person, in a dialog before any window, whether to take over from `running`.
#[cfg(target_os = "linux")]
pub fn ask(running: &EngineInfo) -> bool {
    use gtk::prelude::*;
    let text = format!(
        "Gatehouse already runs without a window (gatehouse serve, pid {}, since {}). Take over? \
         Its servers stop and start again here; requests in flight fail and can be made again.",
        running.pid, running.since
    );
    let dialog = gtk::MessageDialog::new(
        None::<&gtk::Window>,
        gtk::DialogFlags::MODAL,
        gtk::MessageType::Question,
        gtk::ButtonsType::None,
        &text,
    );
    dialog.set_title("Gatehouse");
    dialog.add_button("Quit", gtk::ResponseType::Cancel);
    dialog.add_button("Take over", gtk::ResponseType::Accept);
    dialog.set_default_response(gtk::ResponseType::Accept);
    let answer = dialog.run();
    dialog.close();
    answer == gtk::ResponseType::Accept
}

/// Elsewhere there is no dialog yet: `--take-over` is the way.
#[cfg(not(target_os = "linux"))]
pub fn ask(_running: &EngineInfo) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn take_over_only_when_asked() {
        let args = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert!(take_over_arg(args(&["--take-over"])));
        assert!(!take_over_arg(args(&["--hidden"])));
    }
}
