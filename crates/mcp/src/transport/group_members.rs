//! Whether a stdio server's process group still has a live member: what decides that a stop is
//! over (the server has exited *and* nothing is left in its group).

/// Whether the group has a member that is not a zombie. Linux reads the process table; a zombie
/// left to a parent that does not reap is no server. Elsewhere any member counts.
#[cfg(target_os = "linux")]
pub(super) fn live_member(pgid: i32) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return true;
    };
    entries.flatten().any(|entry| {
        let stat = match entry.file_name().to_str() {
            Some(pid) if pid.bytes().all(|b| b.is_ascii_digit()) => {
                std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default()
            }
            _ => return false,
        };
        // `pid (comm) state ppid pgrp …`: comm may hold anything, so parse after its last `)`.
        let mut fields = stat
            .rsplit_once(')')
            .map(|(_, rest)| rest.split_whitespace())
            .into_iter()
            .flatten();
        let state = fields.next();
        let group = fields.nth(1).and_then(|g| g.parse::<i32>().ok());
        group == Some(pgid) && state != Some("Z")
    })
}

#[cfg(not(target_os = "linux"))]
pub(super) fn live_member(_pgid: i32) -> bool {
    true
}
