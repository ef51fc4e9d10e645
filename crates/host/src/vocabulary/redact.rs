//! Redaction, applied to every audit event before any of it is written (and to what a server
//! writes to its log): the audit log must never hold a secret, because it is kept for a long
//! time, exported and shown.
//!
//! - A JSON object key that looks like it names a secret (case-insensitively containing
//!   `token`, `password`, `passwd`, `secret`, `authorization`, `api_key`, `apikey`, `api-key`
//!   or `cookie`) has its value, whatever it is, replaced by `"[redacted]"`. This errs on the side
//!   of hiding: `max_tokens` is hidden too.
//! - Any text (in `detail`, its keys and the event's other fields) that contains a known secret
//!   value (the registry's secret env values and headers) has it replaced by `[redacted]`.
//!   Values shorter than 4 characters are not matched: they would blank common words.
//! - A `detail` whose JSON is larger than 64 KiB is replaced by
//!   `{"truncated": true, "size": <bytes>, "sha256": "<hex of the redacted JSON>"}`.
//!
//! The known values are those given with `AuditLog::set_secrets`, and every OAuth token this
//! process has handled (`store::secrets::tokens_seen`) is hidden the same way.

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

/// What replaces a secret.
pub const REDACTED: &str = "[redacted]";

/// The largest `detail` kept whole, in bytes of its JSON text.
pub const MAX_DETAIL_BYTES: usize = 64 * 1024;

/// Shorter known secrets are not matched.
pub const MIN_SECRET_CHARS: usize = 4;

/// Substrings of object keys whose values are always hidden.
const SECRET_KEY_PARTS: [&str; 9] = [
    "token",
    "password",
    "passwd",
    "secret",
    "authorization",
    "api_key",
    "apikey",
    "api-key",
    "cookie",
];

/// Known secret values, ready for matching: long enough, distinct, longest first (so a secret
/// that contains another is hidden whole). `Debug` shows only how many there are.
#[derive(Clone, Default)]
pub struct KnownSecrets(std::sync::Arc<[String]>);

impl std::fmt::Debug for KnownSecrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "KnownSecrets({} values)", self.0.len())
    }
}

impl KnownSecrets {
    pub fn new(values: impl IntoIterator<Item = String>) -> Self {
        let mut values: Vec<String> = values
            .into_iter()
            .filter(|v| v.chars().count() >= MIN_SECRET_CHARS)
            .collect();
        values.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        values.dedup();
        KnownSecrets(values.into())
    }

    /// `text` with every known secret in it replaced by `[redacted]`.
    pub fn scrub(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for secret in self.0.iter() {
            if out.contains(secret.as_str()) {
                out = out.replace(secret.as_str(), REDACTED);
            }
        }
        out
    }

    /// `scrub` without copying a text that holds no known secret.
    pub fn scrub_cow<'t>(&self, text: &'t str) -> std::borrow::Cow<'t, str> {
        if self.holds(text) {
            std::borrow::Cow::Owned(self.scrub(text))
        } else {
            std::borrow::Cow::Borrowed(text)
        }
    }

    /// `scrub` for the start of a longer text that was cut short: a secret that straddled the
    /// cut leaves only its start at the end, so an end that is the start of a known secret (at
    /// least [`MIN_SECRET_CHARS`] characters of it) is hidden too.
    pub fn scrub_cut(&self, text: &str) -> String {
        let mut out = self.scrub(text);
        let tail = self
            .0
            .iter()
            .filter_map(|secret| {
                // The longest proper start of `secret` that `out` ends with.
                secret
                    .char_indices()
                    .skip(MIN_SECRET_CHARS)
                    .map(|(at, _)| &secret[..at])
                    .filter(|start| out.ends_with(start))
                    .map(str::len)
                    .max()
            })
            .max();
        if let Some(len) = tail {
            out.truncate(out.len() - len);
            out.push_str(REDACTED);
        }
        out
    }

    /// Whether `text` holds a known secret.
    pub fn holds(&self, text: &str) -> bool {
        self.0.iter().any(|secret| text.contains(secret.as_str()))
    }

    /// Whether there is no secret to hide.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `scrub` for an optional field, without copying a text that holds no known secret.
    pub fn scrub_opt(&self, text: Option<String>) -> Option<String> {
        text.map(|t| self.scrub_owned(t))
    }

    /// `scrub` of a text given whole, returned as it is when it holds no known secret.
    pub fn scrub_owned(&self, text: String) -> String {
        match self.scrub_cow(&text) {
            std::borrow::Cow::Owned(scrubbed) => scrubbed,
            std::borrow::Cow::Borrowed(_) => text,
        }
    }
}

/// Whether an object key names a secret (ASCII case ignored).
pub fn is_secret_key(key: &str) -> bool {
    let key = key.as_bytes();
    SECRET_KEY_PARTS.iter().any(|part| {
        key.windows(part.len())
            .any(|window| window.eq_ignore_ascii_case(part.as_bytes()))
    })
}

/// `value` with secret-named keys' values and known secret values hidden.
pub fn redact(mut value: Value, secrets: &KnownSecrets) -> Value {
    redact_in_place(&mut value, secrets);
    value
}

/// [`redact`] on `value` where it is: only what holds a secret is rewritten.
fn redact_in_place(value: &mut Value, secrets: &KnownSecrets) {
    match value {
        Value::String(text) => {
            if let std::borrow::Cow::Owned(scrubbed) = secrets.scrub_cow(text) {
                *text = scrubbed;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| redact_in_place(v, secrets)),
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                if is_secret_key(key) {
                    *value = Value::String(REDACTED.to_owned());
                } else {
                    redact_in_place(value, secrets);
                }
            }
            // A key that holds a known secret is renamed (rare: the map is rebuilt in order).
            if map.keys().any(|key| secrets.holds(key)) {
                let named = std::mem::take(map);
                *map = named
                    .into_iter()
                    .map(|(key, value)| (secrets.scrub_owned(key), value))
                    .collect::<Map<String, Value>>();
            }
        }
        _ => {}
    }
}

/// A redacted `detail` as it is stored, with its JSON text: itself, or its summary when its
/// text is larger than [`MAX_DETAIL_BYTES`].
pub fn bounded(detail: Value) -> (Value, String) {
    let text = detail.to_string();
    if text.len() <= MAX_DETAIL_BYTES {
        return (detail, text);
    }
    let summary = json!({
        "truncated": true,
        "size": text.len(),
        "sha256": format!("{:x}", Sha256::digest(text.as_bytes())),
    });
    let summary_text = summary.to_string();
    (summary, summary_text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secrets(values: &[&str]) -> KnownSecrets {
        KnownSecrets::new(values.iter().map(|v| (*v).to_owned()))
    }

    #[test]
    fn values_under_secret_looking_keys_are_hidden_at_any_depth() {
        let detail = json!({
            "Authorization": "Bearer abc",
            "nested": [{"X-Api-Key": 42, "GITHUB_TOKEN": {"v": "x"}, "city": "Oslo"}],
            "session_cookie": null,
            "passwd": "p",
        });
        let out = redact(detail, &KnownSecrets::default());
        assert_eq!(out["Authorization"], REDACTED, "a header is a secret");
        assert_eq!(
            out["nested"][0]["X-Api-Key"], REDACTED,
            "case and position must not matter"
        );
        assert_eq!(
            out["nested"][0]["GITHUB_TOKEN"], REDACTED,
            "an object under a secret key is hidden whole"
        );
        assert_eq!(out["nested"][0]["city"], "Oslo", "other values are kept");
        assert_eq!(out["session_cookie"], REDACTED);
        assert_eq!(out["passwd"], REDACTED);
    }

    #[test]
    fn known_secret_values_are_hidden_wherever_they_appear() {
        let known = secrets(&["s3cr3t-value", "s3cr3t", "abc"]);
        let detail = json!({
            "note": "uses s3cr3t-value inside",
            "list": ["s3cr3t", "plain"],
            "s3cr3t-value": 1,
            "short": "abc stays",
        });
        let out = redact(detail, &known);
        assert_eq!(
            out["note"], "uses [redacted] inside",
            "the longest secret is hidden whole, not leaving a tail"
        );
        assert_eq!(out["list"][0], REDACTED);
        assert_eq!(out["list"][1], "plain");
        assert_eq!(out["[redacted]"], 1, "a secret used as a key is hidden too");
        assert_eq!(
            out["short"], "abc stays",
            "values under 4 characters are not matched: they would blank ordinary text"
        );
    }

    #[test]
    fn a_key_holding_a_secret_is_renamed_in_place_with_what_is_under_it_redacted() {
        let known = secrets(&["s3cr3t-value"]);
        let detail = json!({
            "a": "plain",
            "k-s3cr3t-value": { "password": "x", "note": "s3cr3t-value" },
            "z": 2,
        });
        let out = redact(detail, &known);
        let keys: Vec<&String> = out.as_object().expect("an object").keys().collect();
        assert_eq!(keys, ["a", "k-[redacted]", "z"], "renamed where it stood");
        assert_eq!(out["k-[redacted]"]["password"], REDACTED);
        assert_eq!(out["k-[redacted]"]["note"], REDACTED);
        assert_eq!(out["a"], "plain");
        assert!(!out.to_string().contains("s3cr3t-value"), "{out}");
    }

    #[test]
    fn the_start_of_a_secret_at_the_end_of_a_cut_text_is_hidden() {
        let known = secrets(&["tok-abcdefgh"]);
        assert_eq!(known.scrub_cut("key tok-abcd"), "key [redacted]");
        assert_eq!(
            known.scrub_cut("key tok-abcdefgh and tok-ab"),
            "key [redacted] and [redacted]",
            "whole secrets first, then the start at the end"
        );
        assert_eq!(
            known.scrub_cut("key tok"),
            "key tok",
            "fewer than 4 characters of a secret are not matched"
        );
        assert_eq!(known.scrub_cut("tok-abcd more"), "tok-abcd more");
    }

    #[test]
    fn a_large_detail_is_replaced_by_its_size_and_hash() {
        let small = json!({"a": "b"});
        assert_eq!(bounded(small.clone()), (small.clone(), small.to_string()));
        let big = json!({"blob": "x".repeat(MAX_DETAIL_BYTES)});
        let text = big.to_string();
        let (summary, summary_text) = bounded(big);
        assert_eq!(
            summary_text,
            summary.to_string(),
            "the stored text is the summary"
        );
        assert_eq!(summary["truncated"], true, "a row must stay small");
        assert_eq!(summary["size"], text.len());
        assert_eq!(
            summary["sha256"],
            format!("{:x}", Sha256::digest(text.as_bytes())),
            "the hash lets a copy of the full text be matched later"
        );
    }
}
