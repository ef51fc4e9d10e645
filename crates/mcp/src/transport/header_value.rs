//! Encoding values for MCP's mirrored HTTP headers (2026-07-28 transports, "Value Encoding"):
//! a value of visible ASCII and spaces, with no space at either end, is sent as it is. Anything
//! else (non-ASCII, control characters, horizontal tab among them, surrounding spaces) is sent
//! as `=?base64?<Base64 of the UTF-8 bytes>?=`, and so is a plain value that already looks like
//! that (starts with `=?base64?` and ends with `?=`), so the server never decodes something the
//! client did not encode.

use base64::Engine as _;

const PREFIX: &str = "=?base64?";
const SUFFIX: &str = "?=";

/// The header text for `value`.
pub fn encode(value: &str) -> String {
    let header_safe = value.chars().all(|c| (' '..='~').contains(&c)) && value.trim() == value;
    let looks_encoded = value.starts_with(PREFIX) && value.ends_with(SUFFIX);
    if header_safe && !looks_encoded {
        value.to_owned()
    } else {
        format!(
            "{PREFIX}{}{SUFFIX}",
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

    #[test]
    fn a_value_that_looks_encoded_is_encoded() {
        assert_eq!(
            encode("=?base64?literal?="),
            "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=",
            "a plain value shaped like the sentinel would be decoded by the server into bytes \
             the client never sent"
        );
        assert_eq!(
            encode("=?base64?="),
            "=?base64?PT9iYXNlNjQ/PQ==?=",
            "the prefix and suffix may share the `?`; the value still starts and ends like one"
        );
        assert_eq!(
            encode("=?base64?abc"),
            "=?base64?abc",
            "only the prefix: not the pattern"
        );
        assert_eq!(encode("abc?="), "abc?=", "only the suffix: not the pattern");
    }

    #[test]
    fn a_tab_is_a_control_character_and_is_encoded() {
        // RFC 9110 allows HTAB inside a field value, but the MCP rule lists control characters
        // among what cannot be sent plain, and HTAB (0x09) is one.
        assert_eq!(encode("a\tb"), "=?base64?YQli?=");
        assert_eq!(encode("\tab"), "=?base64?CWFi?=");
    }
}
