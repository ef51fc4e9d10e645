//! Encoding values for MCP's mirrored HTTP headers (2026-07-28 transports, "Value Encoding"):
//! a value of visible ASCII and spaces, with no space at either end, is sent as it is. Anything
//! else (non-ASCII, control characters, horizontal tab among them, surrounding spaces) is sent
//! as `=?base64?<Base64 of the UTF-8 bytes>?=`, and so is a plain value that already looks like
//! that (starts with `=?base64?` and ends with `?=`), so the server never decodes something the
//! client did not encode. A tool argument mirrored into `Mcp-Param-*` is first turned into
//! text ("Type conversion"): strings as above, booleans as `true`/`false`, integers in decimal
//! and only within JavaScript's safe range.

use base64::Engine as _;
use serde_json::Value;

const PREFIX: &str = "=?base64?";
const SUFFIX: &str = "?=";

/// JavaScript's largest safe integer, 2^53 − 1: a mirrored integer must lie within ±this.
const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

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

/// Why a header value cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadHeaderValue {
    #[error("the value has characters a header value may not carry")]
    InvalidCharacters,
    #[error("the value is wrapped as Base64 (`=?base64?…?=`) but is not valid padded Base64")]
    InvalidBase64,
    #[error("the Base64 value is not UTF-8 text")]
    NotUtf8,
}

/// The text a header value carries, as a server reads it ("Value Encoding", "Server
/// Validation"): surrounding whitespace dropped (RFC 9110 §5.5), then a value wrapped as
/// `=?base64?…?=` decoded (strict: canonical padding, the standard alphabet), anything else
/// taken literally (a value missing the prefix or the suffix is not encoded).
pub fn decode(raw: &[u8]) -> Result<String, BadHeaderValue> {
    let visible = |b: &u8| *b == b'\t' || (0x20..=0x7e).contains(b);
    if !raw.iter().all(visible) {
        return Err(BadHeaderValue::InvalidCharacters);
    }
    let text = std::str::from_utf8(raw)
        .map_err(|_| BadHeaderValue::InvalidCharacters)?
        .trim_matches([' ', '\t']);
    let Some(inner) = text
        .strip_prefix(PREFIX)
        .and_then(|rest| rest.strip_suffix(SUFFIX))
    else {
        return Ok(text.to_owned());
    };
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(inner)
        .map_err(|_| BadHeaderValue::InvalidBase64)?;
    String::from_utf8(bytes).map_err(|_| BadHeaderValue::NotUtf8)
}

/// An integer argument outside JavaScript's safe range, which a mirrored header must not carry
/// (2026-07-28 transports/streamable-http, "Schema Extension"). Sending it, or leaving its
/// header out while the body has it, would both break the rules, so the call is not sent.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{value} is outside the safe integer range (±(2^53 − 1)) a mirrored header allows")]
pub struct UnsafeInteger {
    value: String,
}

/// The header text of one tool argument (a string, boolean or integer); `None` for null or a
/// value of another kind.
pub fn argument_text(value: &Value) -> Result<Option<String>, UnsafeInteger> {
    match value {
        Value::String(s) => Ok(Some(encode(s))),
        Value::Bool(b) => Ok(Some(b.to_string())),
        Value::Number(n) => integer_text(n),
        _ => Ok(None),
    }
}

/// The decimal text of an integer within the safe range; `None` for a fraction.
fn integer_text(n: &serde_json::Number) -> Result<Option<String>, UnsafeInteger> {
    let unsafe_integer = || UnsafeInteger {
        value: n.to_string(),
    };
    if let Some(i) = n.as_i64() {
        let safe = (-MAX_SAFE_INTEGER..=MAX_SAFE_INTEGER).contains(&i);
        return safe.then(|| Some(i.to_string())).ok_or_else(unsafe_integer);
    }
    match n.as_f64() {
        // An integral float (`42.0`) is an integer to JSON Schema, and the server compares
        // integers numerically; beyond the safe range a double is no longer exact.
        Some(f) if f.fract() == 0.0 && f.abs() <= MAX_SAFE_INTEGER as f64 => {
            Ok(Some((f as i64).to_string()))
        }
        Some(f) if f.fract() != 0.0 => Ok(None),
        _ => Err(unsafe_integer()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_server_reads_what_a_client_encoded_and_refuses_what_is_malformed() {
        for value in [
            "us-west1",
            "Hello, 世界",
            " padded ",
            "line1\nline2",
            "=?base64?x?=",
        ] {
            assert_eq!(
                decode(encode(value).as_bytes()),
                Ok(value.to_owned()),
                "{value}"
            );
        }
        assert_eq!(decode(b"  get_weather\t"), Ok("get_weather".to_owned()));
        assert_eq!(decode(b"=?base64?SGVsbG8=?="), Ok("Hello".to_owned()));
        // Half a wrapper is a literal value.
        assert_eq!(
            decode(b"=?base64?SGVsbG8="),
            Ok("=?base64?SGVsbG8=".to_owned())
        );
        assert_eq!(decode(b"SGVsbG8="), Ok("SGVsbG8=".to_owned()));
        assert_eq!(
            decode(b"=?base64?SGVsbG8?="),
            Err(BadHeaderValue::InvalidBase64)
        );
        assert_eq!(
            decode(b"=?base64?SGVs!!!bG8=?="),
            Err(BadHeaderValue::InvalidBase64)
        );
        assert_eq!(decode(b"=?base64?/w==?="), Err(BadHeaderValue::NotUtf8));
        assert_eq!(decode(b"a\nb"), Err(BadHeaderValue::InvalidCharacters));
        assert_eq!(
            decode("é".as_bytes()),
            Err(BadHeaderValue::InvalidCharacters)
        );
    }

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

    #[test]
    fn encodes_values_and_omits_nulls() {
        assert_eq!(
            argument_text(&json!("us-west1")),
            Ok(Some("us-west1".into()))
        );
        assert_eq!(
            argument_text(&json!(" padded ")),
            Ok(Some("=?base64?IHBhZGRlZCA=?=".into()))
        );
        assert_eq!(argument_text(&json!(42)), Ok(Some("42".into())));
        assert_eq!(argument_text(&json!(false)), Ok(Some("false".into())));
        assert_eq!(
            argument_text(&json!(null)),
            Ok(None),
            "a null argument sends no header"
        );
    }

    #[test]
    fn an_integer_outside_the_safe_range_is_refused() {
        let safe = 9_007_199_254_740_991_i64;
        assert_eq!(argument_text(&json!(safe)), Ok(Some(safe.to_string())));
        assert_eq!(argument_text(&json!(-safe)), Ok(Some((-safe).to_string())));
        assert_eq!(
            argument_text(&json!(42.0)),
            Ok(Some("42".into())),
            "42.0 is the integer 42, and the server compares it as a number"
        );
        assert_eq!(
            argument_text(&json!(1.5)),
            Ok(None),
            "a fraction is no integer"
        );
        for unsafe_value in [
            json!(safe + 1),
            json!(-safe - 1),
            json!(u64::MAX),
            json!(1e300),
        ] {
            assert!(
                argument_text(&unsafe_value).is_err(),
                "{unsafe_value} cannot be mirrored exactly; sending it or leaving the header out \
                 would both break the rule, so the call must not go out"
            );
        }
    }
}
