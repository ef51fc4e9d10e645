//! The audit log's writer: how this process's appends reach the database, one commit at a time.
//!
//! An append that finds nobody committing commits at once, on its own thread (the task's
//! worker), with the writer's connection ([`super::append_tx`]): no hand-off to another thread
//! and back, which on this kind of machine cost more than the commit itself. Appends made while
//! a commit runs queue (at most [`QUEUE`]; past that an appending task waits, so a burst costs
//! time, never memory) and are committed together by the writer's thread, in one transaction of
//! at most [`BATCH`] (group commit), which is what keeps the audited calls per second up under
//! load; once the thread leads, it goes on committing what comes until nothing has come for
//! [`LINGER`], so steady load from several callers keeps being committed together. Once
//! [`LONE_BATCHES`] batches in a row held one append each, it lets go as soon as the queue is
//! empty: a lone caller's appends go back to committing in place instead of each waking the
//! thread and waiting for it (two hand-offs between threads per append). Each append is answered
//! only after the commit that holds it, so a returned row is durable (see
//! [`super::AuditLog::append_all`]). Exactly one committer leads at a time, so appends are
//! committed in the order they were queued.
//!
//! An append never waits on another process's write lock on a runtime's worker: committing in
//! place gives up at once when the database is busy, and the batch goes to the thread, which
//! waits for the lock as the store's pool does.
//!
//! The thread also keeps the search index up to date ([`super::indexer`]), off the appending
//! path: once appends have paused for [`IDLE`], or [`super::indexer::BACKLOG`] rows were
//! appended since it last did, and whenever a search asks it to. It checkpoints the WAL when
//! idle (or every [`CHECKPOINT_EVERY`] commits, should appends never pause) rather than within a
//! commit. It is started by the first append and ends when the last handle to the log is
//! dropped; the connections close with it.
//!
//! Each append comes with its [`Keying`] (see [`super::append_tx`] for the `keying` rows).
//! After each commit the newest row, when keyed, is published as the head for the checkpoint
//! ([`super::checkpoint`]).

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use rusqlite::Connection;
use tokio::sync::{Semaphore, oneshot, watch};

use super::append_tx::{self, Batch, Prepared};
use super::checkpoint::Head;
use super::event::AuditRow;
use super::key_source::Keying;
use super::{idle_chores, indexer};
use crate::error::{HostError, Result};

/// Appends that may wait for a commit before appending tasks wait in turn.
pub const QUEUE: usize = 1024;

/// The most appends committed in one transaction.
pub const BATCH: usize = 256;

/// Signals waiting for the thread; past that, a wake-up is already pending and is not repeated.
const SIGNALS: usize = 64;

/// How long appends pause before the thread indexes what was appended.
pub const IDLE: Duration = Duration::from_millis(250);

/// Commits after which the WAL is checkpointed even if appends never pause, so it does not
/// grow without bound.
pub const CHECKPOINT_EVERY: usize = 2000;

/// How long the thread, once it leads (appends came while another was committing), waits for
/// more before it lets the next append commit in place again: under steady load from several
/// callers it keeps committing them together.
pub const LINGER: Duration = Duration::from_millis(1);

/// Batches of one append in a row after which the thread stops leading (when nothing else is
/// queued): the appends come from one caller at a time, and commit in place again.
pub const LONE_BATCHES: usize = 32;

/// How long the thread waits for another process's write lock (the app and CLI processes
/// share the database), as the store's pool does.
const BUSY_TIMEOUT: Duration = Duration::from_secs(15);

/// The rows of an append as committed, or `None` for a guarded append whose guard no longer
/// held (not written; see [`super::append_tx`]).
type Answer = oneshot::Sender<Result<Option<Vec<AuditRow>>>>;

/// An append waiting to be committed.
struct Pending {
    batch: Batch,
    done: Answer,
}

/// Who commits the queue now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Leader {
    Nobody,
    /// An appending task, in place.
    InPlace,
    /// The writer's thread, until the queue is empty.
    Thread,
}

/// What appends share; the lock is held only to queue and dequeue, never over a commit.
struct State {
    queue: VecDeque<Pending>,
    leader: Leader,
    /// The connection appends commit with in place; `None` while one does, or until the first.
    in_place: Option<rusqlite::Result<Connection>>,
    /// Rows appended since the search index last caught up, commits since the last checkpoint,
    /// and when the last commit ended.
    unindexed: usize,
    commits: usize,
    last_commit: Option<Instant>,
    /// Batches the thread committed (not in place), for tests of who leads; counted under the
    /// lock the commit takes anyway.
    by_thread: usize,
}

/// Who commits a batch.
#[derive(Debug, Clone, Copy)]
enum By {
    /// An appending task, on its own thread.
    InPlace,
    /// The writer's thread; `let_go` once [`LONE_BATCHES`] batches in a row held one append.
    Thread { let_go: bool },
}

/// What the thread is asked to do.
enum Signal {
    /// Commit what is queued (it leads until nothing has come for [`LINGER`]).
    Drain,
    /// Index every row not yet in the search index.
    CatchUp(oneshot::Sender<Result<()>>),
}

struct Shared {
    path: PathBuf,
    heads: Arc<watch::Sender<Option<Head>>>,
    state: Mutex<State>,
    room: Arc<Semaphore>,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Commits `appends` on `connection`, answers each and publishes the new head. In place, a
    /// busy database (another process writing) hands them back untouched. The thread, told to
    /// let go, stops leading if nothing else is queued, before it answers: the caller it answers
    /// may run at once and append again, and that append then commits in place.
    fn commit(
        &self,
        connection: &mut rusqlite::Result<Connection>,
        appends: Vec<Pending>,
        by: By,
    ) -> Option<Vec<Pending>> {
        let (give_back, busy_timeout, let_go) = match by {
            By::InPlace => (true, Duration::ZERO, false),
            By::Thread { let_go } => (false, BUSY_TIMEOUT, let_go),
        };
        let (mut batches, dones): (Vec<Batch>, Vec<Answer>) =
            appends.into_iter().map(|p| (p.batch, p.done)).unzip();
        let outcome = match connection {
            Ok(connection) => append_tx::write(connection, &mut batches),
            Err(e) => Err(append_tx::Failure::Other(HostError::AuditWrite(format!(
                "cannot open the database: {e}"
            )))),
        };
        match outcome {
            Ok((rows, head)) => {
                if let Some(head) = head {
                    self.heads.send_replace(Some(head));
                }
                let appended: usize = rows.iter().flatten().map(Vec::len).sum();
                let mut state = self.lock();
                state.unindexed += appended;
                state.commits += 1;
                state.last_commit = Some(Instant::now());
                if matches!(by, By::Thread { .. }) {
                    state.by_thread += 1;
                }
                if let_go && state.queue.is_empty() {
                    state.leader = Leader::Nobody;
                }
                drop(state);
                for (done, rows) in dones.into_iter().zip(rows) {
                    let _ = done.send(Ok(rows));
                }
                None
            }
            Err(append_tx::Failure::Busy) if give_back => Some(
                batches
                    .into_iter()
                    .zip(dones)
                    .map(|(batch, done)| Pending { batch, done })
                    .collect(),
            ),
            Err(failure) => {
                let message = failure.into_error().to_string();
                for done in dones {
                    let _ = done.send(Err(HostError::AuditWrite(message.clone())));
                }
                // A connection that failed mid-transaction is opened afresh for the next batch.
                *connection = append_tx::open(&self.path, busy_timeout);
                None
            }
        }
    }

    /// The queue's next batch, or `None` (and nobody leads) when it is empty.
    fn next_batch(&self, state: &mut State) -> Option<Vec<Pending>> {
        if state.queue.is_empty() {
            state.leader = Leader::Nobody;
            return None;
        }
        let n = state.queue.len().min(BATCH);
        Some(state.queue.drain(..n).collect())
    }
}

/// A handle to the writer of one database file; clones share it.
#[derive(Clone)]
pub(crate) struct Writer {
    shared: Arc<Shared>,
    thread: Arc<OnceLock<SyncSender<Signal>>>,
}

impl std::fmt::Debug for Writer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Writer")
            .field("path", &self.shared.path)
            .finish_non_exhaustive()
    }
}

impl Writer {
    /// The writer of the database at `path`, publishing each new keyed head to `heads`.
    pub(crate) fn new(path: PathBuf, heads: Arc<watch::Sender<Option<Head>>>) -> Self {
        Writer {
            shared: Arc::new(Shared {
                path,
                heads,
                state: Mutex::new(State {
                    queue: VecDeque::new(),
                    leader: Leader::Nobody,
                    in_place: None,
                    unindexed: 0,
                    commits: 0,
                    last_commit: None,
                    by_thread: 0,
                }),
                room: Arc::new(Semaphore::new(QUEUE)),
            }),
            thread: Arc::default(),
        }
    }

    /// Appends `prepared` after the last row, keyed as `keying` says, and returns the rows
    /// once they are committed; with a `guard`, only if the store's change counter is still
    /// that (`None` if it is not: nothing was written).
    pub(crate) async fn append(
        &self,
        prepared: Prepared,
        keying: Keying,
        guard: Option<i64>,
    ) -> Result<Option<Vec<AuditRow>>> {
        let thread = self.thread();
        let _room = match self.shared.room.clone().try_acquire_owned() {
            Ok(room) => room,
            Err(_) => {
                tracing::info!("{QUEUE} audit appends wait for a commit; the next one waits too");
                self.shared
                    .room
                    .clone()
                    .acquire_owned()
                    .await
                    .map_err(|_| writer_gone())?
            }
        };
        let (done, written) = oneshot::channel();
        let lead = {
            let mut state = self.shared.lock();
            state.queue.push_back(Pending {
                batch: Batch {
                    prepared,
                    keying,
                    guard,
                },
                done,
            });
            let leader = state.leader;
            if leader == Leader::Nobody {
                state.leader = Leader::InPlace;
            }
            leader
        };
        match lead {
            Leader::Nobody => self.commit_in_place(&thread),
            // The thread may be waiting for more appends ([`LINGER`]).
            Leader::Thread => self.wake(&thread),
            Leader::InPlace => {}
        }
        written.await.map_err(|_| writer_gone())?
    }

    /// Commits the queue's first batch (this append's, and any queued with it) here; what is
    /// queued after it, or a batch the database was too busy for, goes to the thread.
    fn commit_in_place(&self, thread: &SyncSender<Signal>) {
        let shared = &self.shared;
        let (batch, mut connection) = {
            let mut state = shared.lock();
            let Some(batch) = shared.next_batch(&mut state) else {
                return;
            };
            let connection = state
                .in_place
                .take()
                .unwrap_or_else(|| append_tx::open(&shared.path, Duration::ZERO));
            (batch, connection)
        };
        let busy = shared.commit(&mut connection, batch, By::InPlace);
        let mut state = shared.lock();
        state.in_place = Some(connection);
        if let Some(batch) = busy {
            for pending in batch.into_iter().rev() {
                state.queue.push_front(pending);
            }
        }
        if state.queue.is_empty() {
            state.leader = Leader::Nobody;
        } else {
            state.leader = Leader::Thread;
            drop(state);
            self.wake(thread);
        }
    }

    /// Tells the thread there is something to commit; a full channel already holds signals that
    /// will make it look.
    fn wake(&self, thread: &SyncSender<Signal>) {
        if let Err(TrySendError::Disconnected(_)) = thread.try_send(Signal::Drain) {
            self.thread_gone();
        }
    }

    /// Answers every queued append with an error: the thread could not be started.
    fn thread_gone(&self) {
        let mut state = self.shared.lock();
        state.leader = Leader::Nobody;
        for pending in state.queue.drain(..) {
            let _ = pending.done.send(Err(writer_gone()));
        }
    }

    /// Returns once every row committed so far is in the search index.
    pub(crate) async fn catch_up(&self) -> Result<()> {
        let (done, indexed) = oneshot::channel();
        let thread = self.thread();
        match thread.try_send(Signal::CatchUp(done)) {
            Ok(()) => {}
            Err(TrySendError::Full(signal)) => {
                tokio::task::spawn_blocking(move || thread.send(signal))
                    .await
                    .map_err(|_| writer_gone())?
                    .map_err(|_| writer_gone())?
            }
            Err(TrySendError::Disconnected(_)) => return Err(writer_gone()),
        }
        indexed.await.map_err(|_| writer_gone())?
    }

    /// Whether the thread leads now, and how many batches it has committed.
    #[cfg(test)]
    pub(crate) fn thread_lead(&self) -> (bool, usize) {
        let state = self.shared.lock();
        (state.leader == Leader::Thread, state.by_thread)
    }

    fn thread(&self) -> SyncSender<Signal> {
        self.thread
            .get_or_init(|| start(Arc::clone(&self.shared)))
            .clone()
    }
}

fn writer_gone() -> HostError {
    HostError::AuditWrite("the writer thread stopped before it wrote the rows".into())
}

/// Starts the thread; it ends when every handle is dropped.
fn start(shared: Arc<Shared>) -> SyncSender<Signal> {
    let (sender, receiver) = mpsc::sync_channel(SIGNALS);
    let spawned = std::thread::Builder::new()
        .name("audit-writer".into())
        .spawn(move || run(&shared, &receiver));
    if let Err(e) = spawned {
        // The receiver went with the closure: every signal reports the writer gone.
        tracing::error!("cannot start the audit writer thread: {e}");
    }
    sender
}

fn run(shared: &Shared, signals: &Receiver<Signal>) {
    let mut connection = append_tx::open(&shared.path, BUSY_TIMEOUT);
    loop {
        let signal = signals.recv_timeout(IDLE);
        let mut catch_ups = Vec::new();
        match signal {
            Ok(Signal::Drain) => drain(shared, &mut connection, signals, &mut catch_ups),
            Ok(Signal::CatchUp(done)) => catch_ups.push(done),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break,
        }
        let (idle, unindexed, commits) = {
            let state = shared.lock();
            let idle = state
                .last_commit
                .is_none_or(|at| at.elapsed() >= IDLE && state.leader == Leader::Nobody);
            (idle, state.unindexed, state.commits)
        };
        if !catch_ups.is_empty() || unindexed >= indexer::BACKLOG || (idle && unindexed > 0) {
            shared.lock().unindexed = 0;
            let outcome = idle_chores::index(&mut connection, &shared.path, BUSY_TIMEOUT);
            for done in catch_ups {
                let _ = done.send(
                    outcome
                        .as_ref()
                        .map(drop)
                        .map_err(|e| HostError::AuditWrite(format!("cannot index: {e}"))),
                );
            }
        }
        if commits >= CHECKPOINT_EVERY || (idle && commits > 0) {
            shared.lock().commits = 0;
            idle_chores::checkpoint(&connection);
        }
    }
}

/// Commits the queue until it has stayed empty for [`LINGER`] (appends made meanwhile
/// included), or until it lets go after [`LONE_BATCHES`] batches of one, then leads no more. A
/// search's request to catch up that comes meanwhile is kept in `catch_ups`, and ends the
/// lingering.
fn drain(
    shared: &Shared,
    connection: &mut rusqlite::Result<Connection>,
    signals: &Receiver<Signal>,
    catch_ups: &mut Vec<oneshot::Sender<Result<()>>>,
) {
    // Batches in a row that held one append: one caller appending at a time, not several worth
    // lingering for.
    let mut lone = 0;
    loop {
        let batch = {
            let mut state = shared.lock();
            if state.leader != Leader::Thread {
                return;
            }
            // A search waiting for the index is not kept waiting for more appends.
            if state.queue.is_empty() && catch_ups.is_empty() {
                drop(state);
                match signals.recv_timeout(LINGER) {
                    Ok(Signal::Drain) => continue,
                    Ok(Signal::CatchUp(done)) => {
                        catch_ups.push(done);
                        continue;
                    }
                    Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                        state = shared.lock();
                    }
                }
            }
            match shared.next_batch(&mut state) {
                Some(batch) => batch,
                None => return,
            }
        };
        lone = if batch.len() == 1 { lone + 1 } else { 0 };
        let let_go = lone >= LONE_BATCHES;
        shared.commit(connection, batch, By::Thread { let_go });
    }
}
