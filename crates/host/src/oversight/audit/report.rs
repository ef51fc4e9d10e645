//! What a full check of the audit log says ([`AuditLog::check`]): the chain's result
//! ([`VerifyReport`]), which stretches of it are keyed ([`ChainPart`]), where the key came from
//! ([`KeyStatus`]) and whether the table still holds the head the checkpoint records
//! ([`CheckpointStatus`]), in the keyring and in a copy the person kept.
//!
//! The checkpoint turns a truncated log into a broken one: rows removed from the end, or the
//! whole file rolled back to an older copy, leave the checkpoint ahead of the table, and the
//! result names the first missing row. A checkpoint is trusted only when its MAC checks under
//! the key; a copy that does not is reported, never compared.

use std::path::PathBuf;

use serde::Serialize;
use sqlx::SqliteConnection;

use super::checkpoint::{self, Checkpoint};
use super::key::AuditKey;
use super::log::AuditLog;
pub use super::parts::{ChainPart, MAX_PARTS, PartKind};
use super::verify::{VerifyReport, walk};
use crate::error::{HostError, Result};

/// Where the key that checked the keyed rows came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "state",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum KeyStatus {
    /// The OS keyring's key for this data directory.
    Keyring { key_id: String },
    /// A key file given to the check (an auditor's).
    File { key_id: String },
    /// The keyring holds no key for this data directory (nothing was keyed here yet).
    Missing,
    /// The keyring could not be reached.
    Unavailable { reason: String },
}

/// What a head checkpoint says of the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "state",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum CheckpointStatus {
    /// The table holds the row it records; `newer` rows were written after it.
    Holds { seq: i64, newer: u64 },
    /// The table does not hold the row it records (the result names what is missing).
    Broken { seq: i64, reason: String },
    /// None was kept yet (no keyed row was written, or not yet checkpointed).
    None,
    /// Its MAC does not check under the key at hand: it is not trusted.
    NotAuthentic { reason: String },
    /// It could not be read or checked.
    Unavailable { reason: String },
}

/// The whole check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ChainReport {
    /// Intact, broken (with the first broken row) or unverified.
    pub result: VerifyReport,
    /// The keyed and unkeyed stretches, oldest first.
    pub parts: Vec<ChainPart>,
    /// Whether more stretches were found than listed.
    pub more_parts: bool,
    pub key: KeyStatus,
    /// The checkpoint in the keyring.
    pub checkpoint: CheckpointStatus,
    /// The copy given with `--head`, if any.
    pub head_copy: Option<CheckpointStatus>,
}

/// What to check with beyond the keyring.
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    /// A key file (`gatehouse audit key export`), used instead of the keyring's key.
    pub key_file: Option<PathBuf>,
    /// A copy of the head checkpoint (`gatehouse audit head`'s output).
    pub head_copy: Option<PathBuf>,
}

impl AuditLog {
    /// Recomputes every row's hash or MAC and link, oldest first, in one read transaction,
    /// and compares the head checkpoint; see [`AuditLog::check`].
    pub async fn verify(&self) -> Result<VerifyReport> {
        Ok(self.check(&CheckOptions::default()).await?.result)
    }

    /// The full check: the chain with the keyring's key (or a key file's), the keyring's
    /// checkpoint, and a copy of one when given. Rows appended meanwhile are left for the next
    /// check.
    pub async fn check(&self, options: &CheckOptions) -> Result<ChainReport> {
        let data_dir_id = match &self.keys {
            Some(keys) => Some(keys.data_dir_id().await?),
            None => None,
        };
        let (key, key_status) = self.key_for_check(options, data_dir_id.as_deref()).await?;
        let keys: Vec<&AuditKey> = key.iter().collect();
        let stored = match &self.keys {
            Some(keys) if !matches!(key_status, KeyStatus::Unavailable { .. }) => {
                checkpoint::stored(keys).await
            }
            _ => Ok(None),
        };
        let copy = options.head_copy.as_ref().map(|path| {
            std::fs::read_to_string(path)
                .map_err(|e| HostError::io(format!("cannot read {}", path.display()), e))
                .and_then(|text| Checkpoint::parse(&text))
        });

        let mut tx = self.pool.begin().await?;
        let walked = walk(&mut tx, None, &keys).await?;
        let mut result = walked.report();
        let checkpoint = match stored {
            Ok(Some(stored)) => {
                compare(&mut tx, &stored, key.as_ref(), data_dir_id.as_deref()).await?
            }
            Ok(None) => match &key_status {
                KeyStatus::Unavailable { reason } => CheckpointStatus::Unavailable {
                    reason: reason.clone(),
                },
                _ if self.keys.is_none() => CheckpointStatus::Unavailable {
                    reason: "the log was opened without a keyring".into(),
                },
                _ => CheckpointStatus::None,
            },
            Err(e) => CheckpointStatus::Unavailable {
                reason: e.to_string(),
            },
        };
        let head_copy = match copy {
            Some(Ok(copy)) => {
                Some(compare(&mut tx, &copy, key.as_ref(), data_dir_id.as_deref()).await?)
            }
            Some(Err(e)) => Some(CheckpointStatus::Unavailable {
                reason: e.to_string(),
            }),
            None => None,
        };
        tx.commit().await?;

        // A checkpoint ahead of the table breaks a chain that is otherwise whole.
        if !matches!(result, VerifyReport::Broken { .. }) {
            for status in std::iter::once(&checkpoint).chain(head_copy.as_ref()) {
                if let CheckpointStatus::Broken { seq, reason } = status {
                    result = VerifyReport::Broken {
                        seq: *seq,
                        reason: reason.clone(),
                    };
                    break;
                }
            }
        }
        Ok(ChainReport {
            result,
            parts: walked.parts,
            more_parts: walked.more_parts,
            key: key_status,
            checkpoint,
            head_copy,
        })
    }

    /// The key to check with: a key file's when given, else the keyring's.
    async fn key_for_check(
        &self,
        options: &CheckOptions,
        data_dir_id: Option<&str>,
    ) -> Result<(Option<AuditKey>, KeyStatus)> {
        if let Some(path) = &options.key_file {
            let (key, for_dir) = AuditKey::read_file(path)?;
            if let Some(id) = data_dir_id
                && id != for_dir
            {
                return Err(HostError::Validation(format!(
                    "{} is the audit key of another data directory ({for_dir}, not {id})",
                    path.display()
                )));
            }
            let status = KeyStatus::File {
                key_id: key.id().to_owned(),
            };
            return Ok((Some(key), status));
        }
        let Some(keys) = &self.keys else {
            return Ok((
                None,
                KeyStatus::Unavailable {
                    reason: "the log was opened without a keyring".into(),
                },
            ));
        };
        Ok(match keys.existing().await {
            Ok(Some(key)) => {
                let status = KeyStatus::Keyring {
                    key_id: key.id().to_owned(),
                };
                (Some((*key).clone()), status)
            }
            Ok(None) => (None, KeyStatus::Missing),
            Err(e) => (
                None,
                KeyStatus::Unavailable {
                    reason: e.to_string(),
                },
            ),
        })
    }
}

/// What `checkpoint` says of the table, read through `conn`.
async fn compare(
    conn: &mut SqliteConnection,
    checkpoint: &Checkpoint,
    key: Option<&AuditKey>,
    data_dir_id: Option<&str>,
) -> Result<CheckpointStatus> {
    let Some(key) = key else {
        return Ok(CheckpointStatus::Unavailable {
            reason: "no audit key is at hand to check the checkpoint's MAC".into(),
        });
    };
    if !checkpoint.authentic(key) {
        return Ok(CheckpointStatus::NotAuthentic {
            reason: format!(
                "its MAC does not check under the audit key {} (a copy edited, or made for \
                 another key)",
                key.id()
            ),
        });
    }
    if data_dir_id.is_some_and(|id| id != checkpoint.data_dir_id) {
        return Ok(CheckpointStatus::NotAuthentic {
            reason: format!(
                "it is the checkpoint of another data directory ({})",
                checkpoint.data_dir_id
            ),
        });
    }
    let last: i64 = sqlx::query_scalar("SELECT COALESCE(MAX(seq), 0) FROM audit_log")
        .fetch_one(&mut *conn)
        .await?;
    if let Some(reason) = checkpoint::still_holds(&mut *conn, checkpoint).await? {
        let seq = if last < checkpoint.seq {
            last + 1
        } else {
            checkpoint.seq
        };
        return Ok(CheckpointStatus::Broken { seq, reason });
    }
    Ok(CheckpointStatus::Holds {
        seq: checkpoint.seq,
        newer: u64::try_from(last - checkpoint.seq).unwrap_or(0),
    })
}

impl ChainReport {
    /// The report as lines for a terminal: the result, then each stretch of rows and how it is
    /// keyed, then each checkpoint's state.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = vec![match &self.result {
            VerifyReport::Intact { rows } => format!("audit log intact: {rows} rows"),
            VerifyReport::Broken { seq, reason } => {
                format!("audit log broken at row {seq}: {reason}")
            }
            VerifyReport::Unverified { reason, .. } => {
                format!("audit log not verified: {reason}")
            }
        }];
        let source = match &self.key {
            KeyStatus::Keyring { .. } => "the OS keyring",
            KeyStatus::File { .. } => "the key file",
            KeyStatus::Missing | KeyStatus::Unavailable { .. } => "",
        };
        for part in &self.parts {
            let key = part.key_id.as_deref().unwrap_or("?");
            let what = match part.kind {
                PartKind::Keyed => format!("keyed, checked with the key {key} from {source}"),
                PartKind::Unkeyed => "UNKEYED (plain SHA-256: anyone who can write the \
                                      database could have rewritten them)"
                    .to_owned(),
                PartKind::Unchecked => format!(
                    "keyed with the key {key}, which is not at hand: only their links were \
                     checked"
                ),
            };
            lines.push(format!("  {}: {what}", span(part.from, part.to)));
        }
        if self.more_parts {
            lines.push(format!(
                "  (and more stretches after the first {MAX_PARTS})"
            ));
        }
        match &self.key {
            KeyStatus::Missing => {
                lines.push("  key: the OS keyring holds none for this data directory".into());
            }
            KeyStatus::Unavailable { reason } => {
                lines.push(format!("  key: none at hand: {reason}"))
            }
            KeyStatus::Keyring { .. } | KeyStatus::File { .. } => {}
        }
        lines.push(format!(
            "  head checkpoint (OS keyring): {}",
            checkpoint_text(&self.checkpoint)
        ));
        if let Some(copy) = &self.head_copy {
            lines.push(format!(
                "  head checkpoint (copy): {}",
                checkpoint_text(copy)
            ));
        }
        lines
    }
}

fn span(from: i64, to: i64) -> String {
    if from == to {
        format!("row {from}")
    } else {
        format!("rows {from} to {to}")
    }
}

fn checkpoint_text(status: &CheckpointStatus) -> String {
    match status {
        CheckpointStatus::Holds { seq, newer } => {
            format!("row {seq}, in the log as recorded ({newer} newer rows)")
        }
        CheckpointStatus::Broken { seq, reason } => format!("BROKEN at row {seq}: {reason}"),
        CheckpointStatus::None => "none kept yet".into(),
        CheckpointStatus::NotAuthentic { reason } => format!("NOT AUTHENTIC: {reason}"),
        CheckpointStatus::Unavailable { reason } => format!("not checked: {reason}"),
    }
}
