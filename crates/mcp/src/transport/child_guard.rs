//! Ties a stdio server's process to the host's life where the OS allows it: on Linux the child
//! asks for SIGKILL when its parent dies (`PR_SET_PDEATHSIG`), so a host killed outright does
//! not leave it running. What the server itself starts is not covered by this; the
//! [`watchdog`](super::watchdog) and the host's start-up sweep are.
//!
//! The signal is asked for in a `pre_exec` hook, before `exec`, which then checks that the host
//! is still the child's parent (it may have died in between, and then nobody would send the
//! signal). That hook is this crate's only `unsafe`: the workspace denies `unsafe_code`, and it
//! is allowed there with its safety case.
//!
//! The signal comes when the *thread* that spawned the child ends, not only the process: servers
//! are spawned from the async runtime's worker threads, which live as long as the runtime, so a
//! runtime shut down kills the servers it started (which is what stopping it means anyway).

/// Makes the child ask for SIGKILL when the host dies (Linux), checking that the host did not
/// die before it asked.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
pub(crate) fn die_with_host(command: &mut tokio::process::Command) {
    let host = nix::unistd::getpid();
    let hook = move || -> std::io::Result<()> {
        nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGKILL)?;
        // The host may have died between fork and prctl: then nobody would send the signal.
        if nix::unistd::getppid() != host {
            return Err(std::io::Error::from_raw_os_error(nix::libc::ESRCH));
        }
        Ok(())
    };
    // SAFETY: the hook runs in the forked child before `exec`. It makes only the `prctl` and
    // `getppid` system calls, both async-signal-safe, and allocates nothing (an `io::Error`
    // from a raw OS error holds no heap data), so it is sound in a child of a multi-threaded
    // process.
    unsafe {
        command.pre_exec(hook);
    }
}

/// No parent-death signal outside Linux: the watchdog and the start-up sweep cover it.
#[cfg(not(target_os = "linux"))]
pub(crate) fn die_with_host(_command: &mut tokio::process::Command) {}
