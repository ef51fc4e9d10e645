//! Checking the chain: every row is read in `seq` order, a page at a time (so a log of millions
//! of rows is checked in bounded memory), its hash recomputed and its link to the row before
//! compared, all in one read transaction (one state of the log, even while rows are appended
//! or pruned meanwhile). The first row that breaks is reported:
//!
//! - a row whose stored content was changed: its hash no longer matches its content;
//! - a removed row: `seq` jumps past it (reported at the row after the gap);
//! - a row whose content and hash were both rewritten: the next row's `prev_hash` no longer
//!   matches.
//!
//! The chain starts at row 1, whose `prev_hash` is [`GENESIS`], or, once old rows were pruned,
//! just after the rows a retention anchor records as dropped (see [`super::anchor`]): a log that
//! starts anywhere else is missing its first rows, and is reported at its first row.
//!
//! A keyed row's MAC is checked with the key that row names, when at hand (the keyring's, or a key
//! file's): without the key nobody can rewrite a keyed row, or recompute the chain after one, so
//! that it checks. A keyed row whose key is not at hand has only its link checked, and the check
//! says so ([`VerifyReport::Unverified`], also given when unkeyed rows follow keyed ones). Unkeyed
//! rows (before keying began, or written while the keyring was unavailable) have their plain
//! SHA-256 checked, which anyone who can write the file can recompute; [`super::report`] says which
//! parts are which.
//!
//! What the chain alone cannot show, removing the newest rows, the head checkpoint kept outside
//! the database shows ([`super::checkpoint`]).

use serde::Serialize;

use sqlx::SqliteConnection;

use super::anchor;
use super::chain::missing;
use super::chain::{self, GENESIS, StoredRow};
use super::key::AuditKey;
use super::parts::{ChainPart, PartKind, Parts};
use crate::error::Result;

/// What [`AuditLog::verify`] found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "state",
    rename_all = "lowercase",
    rename_all_fields = "camelCase"
)]
pub enum VerifyReport {
    /// Every row matches its hash and links to the one before.
    Intact { rows: u64 },
    /// The first row that does not; `reason` says how.
    Broken { seq: i64, reason: String },
    /// Every row links to the one before and every row that could be checked matches, but
    /// some rows cannot be vouched for (`reason` says which): keyed rows whose key is not at
    /// hand, or unkeyed rows after keyed ones (written while the OS keyring was unavailable,
    /// or rewritten by someone without the key: the two look alike).
    Unverified { rows: u64, reason: String },
}

/// Follows the chain row by row.
#[derive(Debug)]
struct ChainCheck<'k> {
    rows: u64,
    last_seq: i64,
    last_hash: String,
    keys: &'k [&'k AuditKey],
    parts: Parts,
}

impl<'k> ChainCheck<'k> {
    fn new(keys: &'k [&'k AuditKey]) -> Self {
        ChainCheck::after(0, GENESIS.to_owned(), keys)
    }

    /// A check whose next row must be `seq + 1`, linking to `hash`.
    fn after(seq: i64, hash: String, keys: &'k [&'k AuditKey]) -> Self {
        ChainCheck {
            rows: 0,
            last_seq: seq,
            last_hash: hash,
            keys,
            parts: Parts::default(),
        }
    }

    /// Checks the next row, returning why it breaks the chain.
    fn check(&mut self, row: &StoredRow) -> Option<String> {
        let expected = self.last_seq + 1;
        if row.seq != expected {
            return Some(format!(
                "{} (seq jumps from {} to {})",
                missing(expected, row.seq - 1),
                self.last_seq,
                row.seq
            ));
        }
        if row.prev_hash != self.last_hash {
            return Some(if self.last_seq == 0 {
                "its prev_hash is not that of a first row".to_owned()
            } else {
                format!(
                    "its prev_hash does not match the hash of row {}",
                    self.last_seq
                )
            });
        }
        let kind = match &row.key_id {
            None => {
                if row.content_hash() != row.hash {
                    return Some("its content does not match its hash".to_owned());
                }
                PartKind::Unkeyed
            }
            Some(id) => match self.keys.iter().find(|key| key.id() == id) {
                Some(key) if row.mac_checks(key) => PartKind::Keyed,
                Some(_) => return Some("its content does not match its hash".to_owned()),
                None => PartKind::Unchecked,
            },
        };
        self.parts.add(row.seq, kind, row.key_id.as_deref());
        self.rows += 1;
        self.last_seq = row.seq;
        self.last_hash.clone_from(&row.hash);
        None
    }
}

/// What a walk along the chain found.
#[derive(Debug)]
pub(crate) struct Walk {
    /// Intact, or the first broken row (never `Unverified`: see [`Walk::report`]).
    pub result: VerifyReport,
    /// The keyed and unkeyed stretches of the rows checked.
    pub parts: Vec<ChainPart>,
    /// Whether `parts` was cut short.
    pub more_parts: bool,
}

impl Walk {
    /// The result, `Unverified` where rows cannot be vouched for.
    pub(crate) fn report(&self) -> VerifyReport {
        let VerifyReport::Intact { rows } = &self.result else {
            return self.result.clone();
        };
        let mut keyed_before = None;
        for part in &self.parts {
            let reason = match part.kind {
                PartKind::Keyed => {
                    keyed_before.get_or_insert(part.to);
                    continue;
                }
                PartKind::Unchecked => format!(
                    "{} keyed with the audit key {}, which is not at hand: only their links \
                     were checked",
                    super::parts::rows_text(part.from, part.to),
                    part.key_id.as_deref().unwrap_or("?"),
                ),
                PartKind::Unkeyed => match keyed_before {
                    None => continue,
                    Some(keyed) => format!(
                        "{} unkeyed, after keyed rows (row {keyed}): written while the OS \
                         keyring was unavailable, or rewritten by someone without the key",
                        super::parts::rows_text(part.from, part.to),
                    ),
                },
            };
            return VerifyReport::Unverified {
                rows: *rows,
                reason,
            };
        }
        self.result.clone()
    }
}

/// Checks the chain from its start through row `through` (every row when `None`), with
/// `keys`, reading through `conn`, which should hold a transaction so that every page is of
/// one state.
pub(crate) async fn walk(
    conn: &mut SqliteConnection,
    through: Option<i64>,
    keys: &[&AuditKey],
) -> Result<Walk> {
    let mut page = chain::page_after(&mut *conn, i64::MIN).await?;
    let Some(first) = page.first() else {
        return Ok(Walk {
            result: VerifyReport::Intact { rows: 0 },
            parts: Vec::new(),
            more_parts: false,
        });
    };
    let mut chain = if first.seq == 1 {
        ChainCheck::new(keys)
    } else {
        match anchor::start_for(&mut *conn, first).await? {
            Ok((seq, hash)) => ChainCheck::after(seq, hash, keys),
            Err(reason) => {
                let mut chain = ChainCheck::new(keys);
                return Ok(chain.finish(VerifyReport::Broken {
                    seq: first.seq,
                    reason,
                }));
            }
        }
    };
    loop {
        let mut after = None;
        for row in &page {
            if through.is_some_and(|last| row.seq > last) {
                let rows = chain.rows;
                return Ok(chain.finish(VerifyReport::Intact { rows }));
            }
            if let Some(reason) = chain.check(row) {
                return Ok(chain.finish(VerifyReport::Broken {
                    seq: row.seq,
                    reason,
                }));
            }
            after = Some(row.seq);
        }
        let Some(after) = after else {
            let rows = chain.rows;
            return Ok(chain.finish(VerifyReport::Intact { rows }));
        };
        page = chain::page_after(&mut *conn, after).await?;
    }
}

impl ChainCheck<'_> {
    fn finish(&mut self, result: VerifyReport) -> Walk {
        let parts = std::mem::take(&mut self.parts);
        let more_parts = parts.cut;
        Walk {
            result,
            parts: parts.list,
            more_parts,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oversight::audit::event::{AuditEvent, AuditKind};
    use crate::oversight::audit::key_source::Keying;

    fn chain_keyed(n: i64, keying: &Keying) -> Vec<StoredRow> {
        let event = AuditEvent {
            kind: AuditKind::Connection,
            ..Default::default()
        };
        let mut rows: Vec<StoredRow> = Vec::new();
        for seq in 1..=n {
            let prev = rows.last().map_or(GENESIS, |r| r.hash.as_str());
            let detail = format!("{{\"n\":{seq}}}");
            let at = "2026-11-23T09:00:00.000Z";
            rows.push(StoredRow::new(&event, detail, (seq, at, prev), keying));
        }
        rows
    }

    fn chain(n: i64) -> Vec<StoredRow> {
        chain_keyed(n, &Keying::Unkeyed("test".into()))
    }

    fn first_break_with(rows: &[StoredRow], keys: &[&AuditKey]) -> Option<(i64, String)> {
        let mut check = ChainCheck::new(keys);
        rows.iter()
            .find_map(|row| check.check(row).map(|reason| (row.seq, reason)))
    }

    fn first_break(rows: &[StoredRow]) -> Option<(i64, String)> {
        first_break_with(rows, &[])
    }

    #[test]
    fn a_keyed_chain_recomputed_without_the_key_is_caught() {
        let key = AuditKey::generate().expect("random");
        let keyed = chain_keyed(4, &Keying::Keyed(std::sync::Arc::new(key.clone())));
        assert_eq!(first_break_with(&keyed, &[&key]), None);

        // The strongest attacker without the key: edit row 2, then recompute it and every
        // later row as best they can (a fresh MAC under a key of their own, keeping the id).
        let forger = AuditKey::generate().expect("random");
        let mut forged = keyed.clone();
        forged[1].detail = "{\"n\":99}".into();
        for i in 1..forged.len() {
            forged[i].prev_hash = forged[i - 1].hash.clone();
            forged[i].hash = forged[i].mac(&forger);
        }
        assert_eq!(
            first_break_with(&forged, &[&key]),
            Some((2, "its content does not match its hash".to_owned()))
        );

        // Or recompute them as plain SHA-256 rows claiming the same key.
        let mut rehashed = keyed.clone();
        rehashed[1].detail = "{\"n\":99}".into();
        rehashed[1].hash = rehashed[1].content_hash();
        assert!(first_break_with(&rehashed, &[&key]).is_some_and(|(seq, _)| seq == 2));

        // Without the key at hand, keyed rows are counted unchecked, never passed as checked.
        let mut check = ChainCheck::new(&[]);
        assert!(keyed.iter().all(|row| check.check(row).is_none()));
        assert_eq!(
            check.parts.list,
            [ChainPart {
                from: 1,
                to: 4,
                kind: PartKind::Unchecked,
                key_id: Some(key.id().to_owned()),
            }]
        );
    }

    #[test]
    fn an_untouched_chain_passes() {
        assert_eq!(first_break(&chain(5)), None);
    }

    #[test]
    fn each_kind_of_tampering_is_named_at_the_first_broken_row() {
        let mut edited = chain(5);
        edited[2].detail = "{\"n\":99}".into();
        assert_eq!(
            first_break(&edited),
            Some((3, "its content does not match its hash".into())),
            "an edited row must be named"
        );

        let mut rehashed = edited.clone();
        rehashed[2].hash = rehashed[2].content_hash();
        assert_eq!(
            first_break(&rehashed),
            Some((4, "its prev_hash does not match the hash of row 3".into())),
            "a row re-hashed after an edit is caught by the next row's link"
        );

        let mut removed = chain(6);
        removed.remove(4);
        assert_eq!(
            first_break(&removed),
            Some((6, "row 5 is missing (seq jumps from 4 to 6)".into())),
            "a deleted row must be named"
        );

        let headless = &chain(3)[1..];
        assert_eq!(
            first_break(headless),
            Some((2, "row 1 is missing (seq jumps from 0 to 2)".into()))
        );
    }
}
