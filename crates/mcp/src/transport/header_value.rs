//! Encoding values for MCP's mirrored HTTP headers (2026-07-28 transports, "Value Encoding"):
//! a value that is visible ASCII without leading or trailing whitespace is sent as it is;
//! anything else (non-ASCII, control characters, surrounding spaces) is sent as
//! `=?base64?<Base64 of the UTF-8 bytes>?=`.

use base64::Engine as _;

/// The header text for `value`.
pub fn encode(value: &str) -> String {
    let plain = value.chars().all(|c| (' '..='~').contains(&c)) && value.trim() == value;
    if plain {
        value.to_owned()
    } else {
        format!(
            "=?base64?{}?=",
            base64::engine::general_purpose::STANDARD.encode(value.as_bytes())
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_ascii_stays_and_everything_else_is_wrapped() {
        assert_eq!(encode("us-west1"), "us-west1");
        assert_eq!(encode("us west 1"), "us west 1", "inner spaces are fine");
        assert_eq!(encode(""), "", "an empty value is an empty header");
        assert_eq!(encode(" padded"), "=?base64?IHBhZGRlZA==?=");
        assert_eq!(encode("Hello, 世界"), "=?base64?SGVsbG8sIOS4lueVjA==?=");
        assert_eq!(encode("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
    }
}
