//! Whether a process recorded by another Gatehouse process (a task's owner, a session grant's
//! holder) is still running.

/// Whether the process with this id is still running.
pub(crate) fn process_lives(pid: u32) -> bool {
    let Ok(pid) = i32::try_from(pid) else {
        return false;
    };
    // Signal 0 checks for existence; EPERM means it exists under another user.
    match nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None) {
        Ok(()) => true,
        Err(errno) => errno == nix::errno::Errno::EPERM,
    }
}
