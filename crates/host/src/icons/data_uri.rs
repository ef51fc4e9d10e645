//! An inline icon: the bytes of a `data:` URI (RFC 2397), base64 or percent-encoded, decoded
//! under the size cap before anything looks at them.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

use super::image_check::{IconRejected, MAX_ICON_BYTES};

/// The bytes a `data:` URI carries; its declared MIME type is ignored (the bytes decide).
pub fn decode(uri: &str) -> Result<Vec<u8>, IconRejected> {
    let rest = uri
        .get(..5)
        .filter(|scheme| scheme.eq_ignore_ascii_case("data:"))
        .map(|_| &uri[5..])
        .ok_or(IconRejected::DataUri)?;
    let (header, payload) = rest.split_once(',').ok_or(IconRejected::DataUri)?;
    let base64 = header.to_ascii_lowercase().ends_with(";base64");
    // Base64 grows the bytes by a third (percent-encoding by at most three times): anything
    // longer cannot decode under the cap.
    if base64 && payload.len() > MAX_ICON_BYTES * 4 / 3 + 4 || payload.len() > MAX_ICON_BYTES * 3 {
        return Err(IconRejected::TooLarge);
    }
    let bytes = if base64 {
        let compact: String = payload
            .chars()
            .filter(|c| !c.is_ascii_whitespace())
            .collect();
        STANDARD
            .decode(compact.as_bytes())
            .map_err(|_| IconRejected::DataUri)?
    } else {
        percent_encoding::percent_decode_str(payload).collect()
    };
    if bytes.len() > MAX_ICON_BYTES {
        return Err(IconRejected::TooLarge);
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_and_percent_encoded_payloads_decode() {
        assert_eq!(
            decode("data:image/png;base64,aGk=").as_deref(),
            Ok(&b"hi"[..])
        );
        assert_eq!(
            decode("DATA:image/png;BASE64,aG\nk=").as_deref(),
            Ok(&b"hi"[..])
        );
        assert_eq!(
            decode("data:image/svg+xml,%3Csvg%2F%3E").as_deref(),
            Ok(&b"<svg/>"[..])
        );
    }

    #[test]
    fn malformed_and_oversized_uris_are_refused() {
        assert_eq!(decode("data:image/png;base64"), Err(IconRejected::DataUri));
        assert_eq!(
            decode("data:image/png;base64,@@@"),
            Err(IconRejected::DataUri)
        );
        assert_eq!(decode("https://x/a.png"), Err(IconRejected::DataUri));
        assert_eq!(decode("dat"), Err(IconRejected::DataUri));
        let long = format!("data:image/png;base64,{}", "A".repeat(MAX_ICON_BYTES * 2));
        assert_eq!(decode(&long), Err(IconRejected::TooLarge));
    }
}
