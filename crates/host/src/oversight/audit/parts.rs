//! The stretches of a chain that are keyed alike ([`ChainPart`]), as a check lists them.

use serde::Serialize;

/// The most stretches a report lists.
pub const MAX_PARTS: usize = 50;

/// How a stretch of rows is keyed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum PartKind {
    /// MACed with the audit key, and checked with it.
    Keyed,
    /// Plain SHA-256: anyone who can write the file can recompute it.
    Unkeyed,
    /// MACed with a key that is not at hand: only the links were checked.
    Unchecked,
}

/// Rows `from` to `to`, all keyed alike.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ChainPart {
    pub from: i64,
    pub to: i64,
    pub kind: PartKind,
    /// The key's id, for keyed rows.
    pub key_id: Option<String>,
}

/// The stretches, built row by row, at most [`MAX_PARTS`].
#[derive(Debug, Default)]
pub(crate) struct Parts {
    pub list: Vec<ChainPart>,
    pub cut: bool,
}

impl Parts {
    pub(crate) fn add(&mut self, seq: i64, kind: PartKind, key_id: Option<&str>) {
        if let Some(last) = self.list.last_mut()
            && last.kind == kind
            && last.key_id.as_deref() == key_id
            && last.to + 1 == seq
        {
            last.to = seq;
            return;
        }
        if self.list.len() >= MAX_PARTS {
            self.cut = true;
            return;
        }
        self.list.push(ChainPart {
            from: seq,
            to: seq,
            kind,
            key_id: key_id.map(str::to_owned),
        });
    }
}

/// "row N" or "rows N to M".
pub(crate) fn rows_text(from: i64, to: i64) -> String {
    if from == to {
        format!("row {from} is")
    } else {
        format!("rows {from} to {to} are")
    }
}
