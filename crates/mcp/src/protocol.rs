//! Protocol revisions this client speaks in the handshake ("legacy") era, newest first.
//!
//! Per the 2025-11-25 lifecycle (basic/lifecycle, "Version Negotiation"), the client offers its
//! latest revision; the server answers with the same or another it supports, and the client
//! disconnects if it does not support the answer.

/// The revision offered in `initialize`.
pub const LATEST: &str = "2025-11-25";

/// Every revision accepted from a server, newest first.
pub const SUPPORTED: &[&str] = &["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/// Whether `version` is one this client speaks.
pub fn is_supported(version: &str) -> bool {
    SUPPORTED.contains(&version)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_every_handshake_revision_and_rejects_others() {
        assert!(
            is_supported(LATEST),
            "the offered revision must be accepted back"
        );
        assert!(
            is_supported("2024-11-05"),
            "the oldest servers must still work"
        );
        assert!(
            !is_supported("2099-01-01"),
            "an unknown revision must never be accepted"
        );
        assert!(!is_supported(""), "an empty version is not a revision");
    }
}
