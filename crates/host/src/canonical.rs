//! The one digest of structured data the engine uses: hex SHA-256 over the RFC 8785 canonical
//! JSON (`serde_jcs`) of a value, so key order and whitespace never change it. Tool definition
//! hashes and the audit log's hash chain are both this.

use serde::Serialize;
use sha2::{Digest, Sha256};

/// Hex SHA-256 of `value`'s canonical JSON. Canonicalisation fails only on numbers JSON cannot
/// carry, which no parsed or engine-built value holds; should it fail, the empty text still
/// hashes to a value no real content matches by accident.
pub fn sha256<T: Serialize + ?Sized>(value: &T) -> String {
    let canonical = serde_jcs::to_vec(value).unwrap_or_default();
    format!("{:x}", Sha256::digest(&canonical))
}
