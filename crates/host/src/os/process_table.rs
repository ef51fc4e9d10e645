//! What the OS says about processes, for telling a recorded process from a later one with the same
//! id: start times, this boot's id and a group's live members from Linux's `/proc`. Elsewhere each
//! answer is `None` and callers fall back to what a signal 0 tells.

/// The process's start time in clock ticks since boot (`/proc/<pid>/stat` field 22).
pub(crate) fn start_time(pid: u32) -> Option<u64> {
    stat_fields(pid)?.get(19)?.parse().ok()
}

/// This boot's id (`/proc/sys/kernel/random/boot_id`).
pub(crate) fn boot_id() -> Option<String> {
    std::fs::read_to_string("/proc/sys/kernel/random/boot_id")
        .ok()
        .map(|id| id.trim().to_owned())
        .filter(|id| !id.is_empty())
}

/// The processes of group `pgid` that are not zombies; `None` without `/proc`.
pub(crate) fn group_members(pgid: u32) -> Option<Vec<u32>> {
    let entries = std::fs::read_dir("/proc").ok()?;
    let members = entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| {
            stat_fields(pid).is_some_and(|fields| {
                fields.first().map(String::as_str) != Some("Z")
                    && fields.get(2).and_then(|g| g.parse::<u32>().ok()) == Some(pgid)
            })
        })
        .collect();
    Some(members)
}

/// The fields of `/proc/<pid>/stat` after `(comm)`, from the state (field 3) on. The command
/// name may hold spaces and parentheses, so the fields start after its last `)`.
fn stat_fields(pid: u32) -> Option<Vec<String>> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, rest) = stat.rsplit_once(')')?;
    Some(rest.split_whitespace().map(str::to_owned).collect())
}

#[cfg(target_os = "linux")]
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_this_process() {
        let me = std::process::id();
        assert!(start_time(me).is_some());
        assert!(boot_id().is_some());
        let group = nix::unistd::getpgrp().as_raw().unsigned_abs();
        assert!(group_members(group).is_some_and(|m| m.contains(&me)));
    }
}
