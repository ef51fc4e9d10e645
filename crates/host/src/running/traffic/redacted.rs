//! A message written as compact JSON with its secrets hidden as it is written, in one pass and
//! without copying the message: the values under keys that name a secret and every known secret
//! value, as [`crate::vocabulary::redact`] hides them for the audit log, and at most a given
//! number of bytes kept (the whole size still counted).

use std::borrow::Cow;

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value;

use crate::vocabulary::redact::{KnownSecrets, REDACTED, is_secret_key};

/// `message` as redacted compact JSON: the first `limit` bytes of it (cut at a character
/// boundary), its whole size, and whether it was cut.
pub fn write(message: &Value, secrets: &KnownSecrets, limit: usize) -> (String, usize, bool) {
    let mut out = Capped {
        kept: Vec::with_capacity(limit.min(4096)),
        limit,
        total: 0,
    };
    // Writing fails only if the writer does, and this one never does.
    let _ = serde_json::to_writer(
        &mut out,
        &Redacted {
            value: message,
            secrets,
        },
    );
    let cut = out.total > out.kept.len();
    let text = match String::from_utf8(out.kept) {
        Ok(text) => text,
        Err(e) => {
            let valid = e.utf8_error().valid_up_to();
            let mut bytes = e.into_bytes();
            bytes.truncate(valid);
            String::from_utf8(bytes).unwrap_or_default()
        }
    };
    (text, out.total, cut)
}

/// Keeps the first `limit` bytes written and counts them all.
struct Capped {
    kept: Vec<u8>,
    limit: usize,
    total: usize,
}

impl std::io::Write for Capped {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.total = self.total.saturating_add(buf.len());
        let room = self.limit.saturating_sub(self.kept.len());
        if room > 0 {
            self.kept.extend_from_slice(&buf[..buf.len().min(room)]);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A value that serialises redacted.
struct Redacted<'a> {
    value: &'a Value,
    secrets: &'a KnownSecrets,
}

impl Redacted<'_> {
    fn text<'t>(&self, text: &'t str) -> Cow<'t, str> {
        self.secrets.scrub_cow(text)
    }
}

impl Serialize for Redacted<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.value {
            Value::String(text) => serializer.serialize_str(&self.text(text)),
            Value::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&Redacted {
                        value: item,
                        secrets: self.secrets,
                    })?;
                }
                seq.end()
            }
            Value::Object(map) => {
                let mut out = serializer.serialize_map(Some(map.len()))?;
                for (key, value) in map {
                    out.serialize_key(&self.text(key))?;
                    if is_secret_key(key) {
                        out.serialize_value(REDACTED)?;
                    } else {
                        out.serialize_value(&Redacted {
                            value,
                            secrets: self.secrets,
                        })?;
                    }
                }
                out.end()
            }
            other => other.serialize(serializer),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::vocabulary::redact::redact;

    #[test]
    fn writes_what_the_audit_redaction_gives() {
        let secrets = KnownSecrets::new(["sk-live-1234".to_owned()]);
        let message = json!({"params": {"api_key": "x", "text": "key sk-live-1234 here",
            "n": [1, 2.5, null, true]}});
        let (text, size, cut) = write(&message, &secrets, usize::MAX);
        assert_eq!(text, redact(message, &secrets).to_string());
        assert_eq!((size, cut), (text.len(), false));
    }

    #[test]
    fn a_long_message_is_cut_at_a_character_boundary_and_fully_counted() {
        let message = json!("ééééé");
        let whole = message.to_string().len();
        let (text, size, cut) = write(&message, &KnownSecrets::default(), 4);
        assert_eq!(text, "\"é", "the split character is left out");
        assert_eq!((size, cut), (whole, true));
    }
}
