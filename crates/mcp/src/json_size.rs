//! The size of a JSON value as compact JSON text, counted without building the text: what a
//! list's pages and a cached result weigh against their byte limits.

use serde_json::Value;

/// Counts the bytes written to it.
struct Count(usize);

impl std::io::Write for Count {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 = self.0.saturating_add(buf.len());
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// How many bytes `value` takes as compact JSON.
pub fn encoded_len(value: &Value) -> usize {
    let mut count = Count(0);
    // Writing a `Value` fails only if the writer does, and this one never does.
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

/// `bytes` for a message: "33554432 bytes (32 MiB)", or plain bytes when not whole MiB.
pub fn describe(bytes: usize) -> String {
    const MIB: usize = 1 << 20;
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{bytes} bytes ({} MiB)", bytes / MIB)
    } else {
        format!("{bytes} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn counts_the_compact_text() {
        let value = json!({"a": [1, "two", null], "b": {"c": true}});
        assert_eq!(encoded_len(&value), value.to_string().len());
        assert_eq!(describe(32 << 20), "33554432 bytes (32 MiB)");
        assert_eq!(describe(1000), "1000 bytes");
    }
}
