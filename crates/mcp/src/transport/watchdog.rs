//! The watchdog: one small `sh` process per host process that stops the host's stdio servers
//! if the host dies without stopping them (SIGKILL, a crash, an abort).
//!
//! `PR_SET_PDEATHSIG` (see `child_guard`) reaches only a server's own process, not what it
//! started (`npx` → `sh` → `node`), and only on Linux. So the first stdio server a process
//! starts also starts this watchdog: `sh` running [`SCRIPT`] in a process group of its own
//! (a Ctrl-C or a signal to the host's group does not reach it) with a clean environment,
//! reading its stdin from a pipe whose only writer is the host (the write end is close-on-exec,
//! so no server holds it). The host writes `+<pgid>` when a server's group starts and
//! `-<pgid>` once it is gone. When the host dies for any reason, the kernel closes the pipe;
//! the watchdog reads end-of-file, sends SIGTERM to every group still listed, waits a second
//! (a `docker run` forwards SIGTERM to its container) and sends SIGKILL, then exits. A host that
//! ends normally has listed nothing by then, and the watchdog exits at once.
//!
//! A watchdog that dies is started again by the next write, and told every group still live.

use std::collections::BTreeSet;
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Mutex, PoisonError};

/// The watchdog's program, run by `/bin/sh`: only shell built-ins but `sleep`.
pub const SCRIPT: &str = r#"trap '' INT TERM HUP QUIT
g=' '
while IFS= read -r l; do
  case $l in
    +*) g="$g${l#+} " ;;
    -*) p=${l#-}
        case $g in *" $p "*) g="${g%%" $p "*} ${g#*" $p "}" ;; esac ;;
  esac
done
[ "$g" = ' ' ] && exit 0
for p in $g; do kill -s TERM -- "-$p" 2>/dev/null; done
sleep 1
for p in $g; do kill -s KILL -- "-$p" 2>/dev/null; done
"#;

struct Watchdog {
    child: Child,
    pipe: ChildStdin,
}

struct State {
    watchdog: Option<Watchdog>,
    /// The groups listed, to tell a restarted watchdog.
    groups: BTreeSet<i32>,
}

static STATE: Mutex<State> = Mutex::new(State {
    watchdog: None,
    groups: BTreeSet::new(),
});

/// Lists a server's process group with the watchdog, starting it if needed.
pub(crate) fn guard(pgid: i32) {
    let mut state = STATE.lock().unwrap_or_else(PoisonError::into_inner);
    state.groups.insert(pgid);
    tell(&mut state, &format!("+{pgid}\n"));
}

/// Takes a group off the list once nothing of it is left.
pub(crate) fn release(pgid: i32) {
    let mut state = STATE.lock().unwrap_or_else(PoisonError::into_inner);
    if state.groups.remove(&pgid) {
        tell(&mut state, &format!("-{pgid}\n"));
    }
}

/// The watchdog's process id, if one runs (for tests and diagnostics).
pub fn pid() -> Option<u32> {
    let state = STATE.lock().unwrap_or_else(PoisonError::into_inner);
    state.watchdog.as_ref().map(|w| w.child.id())
}

/// Writes a line to the watchdog; a watchdog that is gone is started again with the whole list.
fn tell(state: &mut State, line: &str) {
    if let Some(watchdog) = &mut state.watchdog {
        let alive = matches!(watchdog.child.try_wait(), Ok(None));
        if alive && watchdog.pipe.write_all(line.as_bytes()).is_ok() {
            return;
        }
        tracing::warn!("the stdio watchdog is gone; starting another");
        if let Some(mut old) = state.watchdog.take() {
            let _ = old.child.kill();
            let _ = old.child.wait();
        }
    }
    let Some(mut watchdog) = start() else {
        return;
    };
    let all: String = state.groups.iter().map(|g| format!("+{g}\n")).collect();
    if let Err(e) = watchdog.pipe.write_all(all.as_bytes()) {
        tracing::warn!("cannot tell the stdio watchdog the server groups: {e}");
    }
    state.watchdog = Some(watchdog);
}

fn start() -> Option<Watchdog> {
    let spawned = Command::new("/bin/sh")
        .args(["-c", SCRIPT])
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn();
    match spawned {
        Ok(mut child) => {
            let pipe = child.stdin.take()?;
            Some(Watchdog { child, pipe })
        }
        Err(e) => {
            tracing::warn!(
                "cannot start the stdio watchdog (/bin/sh): {e}; servers may outlive a crash"
            );
            None
        }
    }
}
