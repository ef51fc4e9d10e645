//! The audit log: an append-only, tamper-evident record of what the host did and why, in the
//! `audit_log` table of the shared store.
//!
//! - [`AuditLog`] (in `log`): the handle, shared by clones: pool, known secrets, writer, key
//!   and checkpoints.
//! - `append`: an event redacted, then handed to the writer.
//! - [`event`]: what is recorded ([`AuditEvent`], [`AuditKind`]) and what is read back
//!   ([`AuditRow`]).
//! - [`redact`]: secrets are removed from every event before any of it is written.
//! - [`chain`]: each row holds the previous row's hash (keyed: an HMAC under the audit key);
//!   appending runs in one immediate transaction, so writers in several processes keep one
//!   chain.
//! - [`key`]: the audit key and the key file an auditor is given.
//! - [`key_source`]: the key from the OS keyring, created on first use; unkeyed rows while
//!   the keyring cannot be reached.
//! - [`checkpoint`]: the newest keyed row, kept in the keyring, so removing the newest rows is
//!   caught.
//! - [`writer`]: how this process's appends are committed: in place when nobody else is
//!   committing, else together by the writer's thread; the thread also indexes and checkpoints.
//! - [`append_tx`]: the transaction that links, hashes and inserts an append's rows.
//! - [`verify`]: recomputes the chain and names the first row that breaks it.
//! - [`parts`]: the stretches of the chain that are keyed alike.
//! - [`report`]: what a full check says: which parts are keyed, and the checkpoint's state.
//! - [`retention`]: drops the rows older than a cutoff and appends an anchor recording them.
//! - [`anchor`]: what an anchor records, and where the chain starts once rows were dropped.
//! - [`query`]: listing, newest first, with filters.
//! - [`search`]: full-text search (FTS5) over the redacted rows, newest first.
//! - [`keys`]: the lookup table `audit_keys`, which carries the indexes of the columns rows
//!   are found by, and the candidate rows a reader selects from.
//! - [`indexer`]: the lookup table and the search index brought up to date, off the appending
//!   path.
//! - [`export`]: every row, oldest first, as JSONL or CSV.
//! - [`export_file`]: an export written to a file whole or not at all.
//!
//! The table refuses `UPDATE` and `DELETE` through triggers (a pruning transaction excepted);
//! anyone who can write the file can get past those, and `verify` is what detects it: with the
//! key, any change to a keyed row, and with the checkpoint, removing the newest rows.

pub mod anchor;
mod append;
mod append_tx;
pub mod chain;
pub(crate) mod checkpoint;
pub(crate) mod event;
pub mod export;
pub mod export_file;
mod idle_chores;
mod indexer;
pub mod key;
pub(crate) mod key_source;
pub(crate) mod keys;
mod log;
pub(crate) mod parts;
pub(crate) mod query;
pub use crate::vocabulary::redact;
pub mod report;
pub mod retention;
pub(crate) mod search;
pub(crate) mod verify;
mod writer;
#[cfg(test)]
mod writer_lead_tests;

pub use checkpoint::Checkpoint;
pub use event::{AuditEvent, AuditKind, AuditRow};
pub use export::ExportFormat;
pub use key::AuditKey;
pub use log::AuditLog;
pub use parts::{ChainPart, PartKind};
pub use query::AuditFilter;
pub use redact::KnownSecrets;
pub use report::{ChainReport, CheckOptions};
pub use retention::PruneReport;
pub use verify::VerifyReport;
