//! The definition hash of the tool a call names, computed once per definition a server listed
//! rather than once per call: a connection keeps each listed definition in one `Arc` until the
//! tools are listed again ([`gatehouse_mcp::Client::cached_tool`]), so the hash is kept with
//! that `Arc` and reused while a call finds the same one. A definition listed anew is a new
//! `Arc`, hashed afresh, so a changed tool is never given its old hash.
//!
//! Bounded: an entry is kept only while a connection still holds its definition (the others are
//! dropped whenever a definition is hashed), and never more than [`KEPT`] entries.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use gatehouse_mcp::Tool;

use crate::vocabulary::definition::definition_hash;

/// The most definitions whose hashes are kept.
pub(super) const KEPT: usize = 512;

/// Each kept definition's hash, by the address of the definition's `Arc`, which the entry holds
/// so that the address cannot be reused by another definition while the entry is there.
type Kept = HashMap<usize, (Arc<Tool>, String)>;

/// The kept hashes; clones share them.
#[derive(Clone, Default)]
pub(super) struct DefinitionHashes {
    kept: Arc<Mutex<Kept>>,
}

impl std::fmt::Debug for DefinitionHashes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DefinitionHashes")
            .field("kept", &self.lock().len())
            .finish()
    }
}

impl DefinitionHashes {
    /// The hex SHA-256 of `tool`'s canonical definition.
    pub(super) fn of(&self, tool: &Arc<Tool>) -> String {
        let key = Arc::as_ptr(tool) as usize;
        if let Some((_, hash)) = self.lock().get(&key) {
            return hash.clone();
        }
        let hash = definition_hash(tool);
        let mut kept = self.lock();
        // Definitions no connection holds any more (only this map does) are not asked again.
        kept.retain(|_, (definition, _)| Arc::strong_count(definition) > 1);
        if kept.len() >= KEPT {
            kept.clear();
        }
        kept.insert(key, (Arc::clone(tool), hash.clone()));
        hash
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(description: &str) -> Arc<Tool> {
        Arc::new(
            serde_json::from_value(json!({"name": "t", "description": description,
                "inputSchema": {"type": "object"}}))
            .expect("a tool"),
        )
    }

    #[test]
    fn a_definition_listed_anew_is_hashed_anew_and_the_old_one_is_let_go() {
        let hashes = DefinitionHashes::default();
        let first = tool("reads a file");
        assert_eq!(hashes.of(&first), definition_hash(&first));
        assert_eq!(hashes.of(&first), definition_hash(&first), "kept");
        assert_eq!(hashes.lock().len(), 1);
        // The server lists the tool again with another description: a new `Arc`.
        let changed = tool("reads a file, and deletes it");
        drop(first);
        assert_eq!(
            hashes.of(&changed),
            definition_hash(&changed),
            "a changed definition gets its own hash, not the old one's"
        );
        assert_ne!(hashes.of(&changed), definition_hash(&tool("reads a file")));
        assert_eq!(
            hashes.lock().len(),
            1,
            "the definition nobody holds is dropped"
        );
    }

    #[test]
    fn never_more_than_kept_entries() {
        let hashes = DefinitionHashes::default();
        let held: Vec<Arc<Tool>> = (0..KEPT + 3).map(|i| tool(&format!("tool {i}"))).collect();
        for definition in &held {
            assert_eq!(hashes.of(definition), definition_hash(definition));
            assert!(
                hashes.lock().len() <= KEPT,
                "{} entries",
                hashes.lock().len()
            );
        }
    }
}
