//! The record of the stdio servers' process groups in the `server_processes` table, and the
//! start-up sweep that stops the groups a host that is gone left behind.
//!
//! Every process that opens the engine (the app and each CLI command) records each server
//! group it starts, with its own pid and start time, and deletes the row once nothing of the
//! group is left. A host killed outright leaves its rows behind. The next [`sweep`] (in
//! `Host::open`) takes every row of a host that no longer runs and, if the group still has
//! members, SIGKILLs it. A group id is trusted only while it is still the same group: the
//! leader recorded is still there with its recorded start time, or it is gone and members
//! remain (the kernel does not hand out a pid still in use as a group id).
//!
//! The watchdog (`gatehouse_mcp::transport::watchdog`) normally stops those groups within a
//! second of the host's death; the sweep covers a watchdog that was itself killed, a machine
//! without `/bin/sh`, and anything the watchdog missed.
//!
//! A row holds the group id, its leader's start time, the recording host's pid and start time, and
//! the boot id. Rows are written in order by one task, through a queue of 1,024 changes.

use std::sync::Arc;

use gatehouse_mcp::GroupRecord;
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use sqlx::{Row, SqlitePool};
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

use crate::error::Result;
use crate::os::process_lives::process_lives;
use crate::os::process_table;

/// Changes waiting to be written: at most this many (a server start or stop each). When full,
/// a change is dropped with a warning; a missing row only means the sweep does not know that
/// group, a stale row is cleared by the next sweep.
const QUEUE: usize = 1024;

enum Change {
    Started {
        pgid: u32,
        server_id: String,
        leader_start: Option<u64>,
    },
    Gone {
        pgid: u32,
    },
    Flushed(oneshot::Sender<()>),
}

/// Writes this process's server groups to the database, in order, from one task.
#[derive(Debug)]
pub(crate) struct GroupLog {
    changes: mpsc::Sender<Change>,
    writer: JoinHandle<()>,
}

impl Drop for GroupLog {
    fn drop(&mut self) {
        self.writer.abort();
    }
}

/// Who this process is, as recorded with each of its groups.
struct Me {
    pid: u32,
    start: Option<u64>,
    boot_id: Option<String>,
}

impl Me {
    fn now() -> Self {
        let pid = std::process::id();
        Self {
            pid,
            start: process_table::start_time(pid),
            boot_id: process_table::boot_id(),
        }
    }
}

impl GroupLog {
    pub(crate) fn start(pool: SqlitePool) -> Self {
        let (changes, queue) = mpsc::channel(QUEUE);
        Self {
            changes,
            writer: tokio::spawn(write(pool, queue)),
        }
    }

    /// The record a server's transport tells about its group.
    pub(crate) fn for_server(&self, server_id: &str) -> Arc<dyn GroupRecord> {
        Arc::new(ServerGroups {
            server_id: server_id.to_owned(),
            changes: self.changes.clone(),
        })
    }

    /// Waits until every change queued so far is written.
    pub(crate) async fn flush(&self) {
        let (done, written) = oneshot::channel();
        if self.changes.send(Change::Flushed(done)).await.is_ok() {
            let _ = written.await;
        }
    }
}

async fn write(pool: SqlitePool, mut queue: mpsc::Receiver<Change>) {
    let me = Me::now();
    while let Some(change) = queue.recv().await {
        let written = match change {
            Change::Started {
                pgid,
                server_id,
                leader_start,
            } => sqlx::query(
                "INSERT OR REPLACE INTO server_processes \
                 (pgid, server_id, leader_start, host_pid, host_start, boot_id) \
                 VALUES (?, ?, ?, ?, ?, ?)",
            )
            .bind(i64::from(pgid))
            .bind(server_id)
            .bind(leader_start.and_then(|t| i64::try_from(t).ok()))
            .bind(i64::from(me.pid))
            .bind(me.start.and_then(|t| i64::try_from(t).ok()))
            .bind(me.boot_id.as_deref())
            .execute(&pool)
            .await
            .map(|_| ()),
            Change::Gone { pgid } => {
                sqlx::query("DELETE FROM server_processes WHERE host_pid = ? AND pgid = ?")
                    .bind(i64::from(me.pid))
                    .bind(i64::from(pgid))
                    .execute(&pool)
                    .await
                    .map(|_| ())
            }
            Change::Flushed(done) => {
                let _ = done.send(());
                Ok(())
            }
        };
        if let Err(e) = written {
            tracing::warn!("cannot record a server's process group: {e}");
        }
    }
}

#[derive(Debug)]
struct ServerGroups {
    server_id: String,
    changes: mpsc::Sender<Change>,
}

impl ServerGroups {
    fn queue(&self, change: Change) {
        if let Err(e) = self.changes.try_send(change) {
            tracing::warn!(
                "the process group record of {} is behind ({QUEUE} changes waiting): {e}",
                self.server_id
            );
        }
    }
}

impl GroupRecord for ServerGroups {
    fn started(&self, pgid: u32) {
        self.queue(Change::Started {
            pgid,
            server_id: self.server_id.clone(),
            leader_start: process_table::start_time(pgid),
        });
    }

    fn gone(&self, pgid: u32) {
        self.queue(Change::Gone { pgid });
    }
}

/// What the start-up sweep found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SweepReport {
    /// Groups left by a host that is gone and still running, now killed.
    pub stopped: Vec<StoppedGroup>,
    /// Rows of a host that is gone whose group had already ended (or was not theirs any more).
    pub cleared: usize,
}

/// A server group the sweep killed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoppedGroup {
    pub server_id: String,
    pub pgid: u32,
    /// How many processes it still had.
    pub processes: usize,
}

/// Stops the groups recorded by hosts that no longer run and forgets their rows.
pub(crate) async fn sweep(pool: &SqlitePool) -> Result<SweepReport> {
    let rows = sqlx::query(
        "SELECT pgid, server_id, leader_start, host_pid, host_start, boot_id \
         FROM server_processes",
    )
    .fetch_all(pool)
    .await?;
    let boot = process_table::boot_id();
    let mut report = SweepReport::default();
    for row in rows {
        let pgid: i64 = row.try_get("pgid")?;
        let host_pid: i64 = row.try_get("host_pid")?;
        let host_start: Option<i64> = row.try_get("host_start")?;
        let (Ok(pgid), Ok(host_pid)) = (u32::try_from(pgid), u32::try_from(host_pid)) else {
            continue;
        };
        let row_boot: Option<String> = row.try_get("boot_id")?;
        let same_boot = match (&row_boot, &boot) {
            (Some(then), Some(now)) => then == now,
            _ => true,
        };
        if same_boot && host_runs(host_pid, host_start) {
            continue;
        }
        let leader_start: Option<i64> = row.try_get("leader_start")?;
        let members = if same_boot {
            still_ours(pgid, leader_start)
        } else {
            Some(Vec::new())
        };
        match members {
            Some(members) if !members.is_empty() => {
                let server_id: String = row.try_get("server_id")?;
                tracing::info!(
                    "stopping server {server_id}'s process group {pgid} ({} processes), left by \
                     Gatehouse process {host_pid}, which is gone",
                    members.len()
                );
                if let Ok(group) = i32::try_from(pgid) {
                    let _ = killpg(Pid::from_raw(group), Signal::SIGKILL);
                }
                report.stopped.push(StoppedGroup {
                    server_id,
                    pgid,
                    processes: members.len(),
                });
            }
            _ => report.cleared += 1,
        }
        sqlx::query("DELETE FROM server_processes WHERE host_pid = ? AND pgid = ?")
            .bind(i64::from(host_pid))
            .bind(i64::from(pgid))
            .execute(pool)
            .await?;
    }
    Ok(report)
}

/// Whether the recorded host still runs: its pid is there with the start time recorded.
fn host_runs(pid: u32, start: Option<i64>) -> bool {
    match (start, process_table::start_time(pid)) {
        (Some(recorded), Some(now)) => u64::try_from(recorded).ok() == Some(now),
        (None, _) => process_lives(pid),
        (Some(_), None) => false,
    }
}

/// The live members of group `pgid` if it is still the group recorded; `None` when that
/// cannot be told (no `/proc`) or another process has its id now.
fn still_ours(pgid: u32, leader_start: Option<i64>) -> Option<Vec<u32>> {
    let leader_now = process_table::start_time(pgid);
    if let (Some(recorded), Some(now)) = (leader_start, leader_now)
        && u64::try_from(recorded).ok() != Some(now)
    {
        // The id was freed and given to a new process: not ours.
        return None;
    }
    process_table::group_members(pgid)
}
