//! A secret string (access and refresh tokens, client secrets) that never shows itself in
//! `Debug` or `Display` output, so it cannot reach a log line or an error message by accident.

use std::fmt;

/// A secret value. Read it with [`Secret::expose`] only where it is put on the wire or into the
/// token store.
#[derive(Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    /// The secret itself.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(<redacted>)")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neither_debug_nor_display_shows_the_value() {
        let secret = Secret::new("test-token-123");
        assert!(!format!("{secret:?}").contains("test-token"));
        assert!(!format!("{secret}").contains("test-token"));
        assert_eq!(secret.expose(), "test-token-123");
    }
}
