//! Whether an icon's bytes are an image the window may show: the format comes from the magic
//! bytes, never from the server's MIME type (2025-11-25 basic/index, "Security
//! considerations": "Detect content type via magic bytes; reject on mismatch or unknown
//! types"), from a strict allowlist (PNG, JPEG, WebP, SVG), with the size and the dimensions
//! capped so an icon cannot exhaust the window.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use imagesize::ImageType;

/// The most bytes an icon may have, fetched or inline.
pub const MAX_ICON_BYTES: usize = 128 * 1024;
/// The widest and tallest a raster icon may be, in pixels.
pub const MAX_DIMENSION: usize = 1024;

/// Why an icon was not shown.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IconRejected {
    #[error("the icon's address is not https or a data URI: {0}")]
    Scheme(String),
    #[error("the icon is on another origin than the server ({0})")]
    Origin(String),
    #[error("the icon's data URI is malformed")]
    DataUri,
    #[error("the icon is larger than {MAX_ICON_BYTES} bytes")]
    TooLarge,
    #[error("the icon is {0}×{1} pixels, more than {MAX_DIMENSION}")]
    TooWide(usize, usize),
    #[error("the icon is not a PNG, JPEG, WebP or SVG image")]
    NotAnImage,
    #[error("the SVG icon holds scripts or foreign content")]
    ActiveSvg,
    #[error("fetching the icon failed: {0}")]
    Fetch(String),
}

/// An icon's bytes checked, with the MIME type its magic bytes say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedImage {
    pub mime: &'static str,
    pub bytes: Vec<u8>,
}

impl CheckedImage {
    /// The image as a `data:` URI, the only way the window receives an icon.
    pub fn data_uri(&self) -> String {
        format!("data:{};base64,{}", self.mime, STANDARD.encode(&self.bytes))
    }
}

/// Checks `bytes` and says what image they are, whatever MIME type the server claimed.
pub fn check(bytes: Vec<u8>) -> Result<CheckedImage, IconRejected> {
    if bytes.len() > MAX_ICON_BYTES {
        return Err(IconRejected::TooLarge);
    }
    if let Ok(kind) = imagesize::image_type(&bytes) {
        let mime = match kind {
            ImageType::Png => "image/png",
            ImageType::Jpeg => "image/jpeg",
            ImageType::Webp => "image/webp",
            _ => return Err(IconRejected::NotAnImage),
        };
        let size = imagesize::blob_size(&bytes).map_err(|_| IconRejected::NotAnImage)?;
        if size.width == 0 || size.height == 0 {
            return Err(IconRejected::NotAnImage);
        }
        if size.width > MAX_DIMENSION || size.height > MAX_DIMENSION {
            return Err(IconRejected::TooWide(size.width, size.height));
        }
        return Ok(CheckedImage { mime, bytes });
    }
    check_svg(&bytes)?;
    Ok(CheckedImage {
        mime: "image/svg+xml",
        bytes,
    })
}

/// An SVG is text whose first element is `<svg`, after an optional XML declaration, doctype
/// and comments. The window shows icons only as `<img>`, where an SVG's scripts never run, but
/// one that carries scripts, event handlers or foreign objects is refused all the same.
fn check_svg(bytes: &[u8]) -> Result<(), IconRejected> {
    let text = std::str::from_utf8(bytes).map_err(|_| IconRejected::NotAnImage)?;
    let text = text.trim_start_matches('\u{feff}');
    if !starts_with_svg_element(text) {
        return Err(IconRejected::NotAnImage);
    }
    let lower = text.to_ascii_lowercase();
    let active = [
        "<script",
        "<foreignobject",
        "javascript:",
        "<iframe",
        "<embed",
        "<object",
    ]
    .iter()
    .any(|needle| lower.contains(needle))
        || has_event_handler(&lower);
    if active {
        return Err(IconRejected::ActiveSvg);
    }
    Ok(())
}

/// Whether the first element, past the prolog, is `<svg`.
fn starts_with_svg_element(mut text: &str) -> bool {
    loop {
        text = text.trim_start();
        let skipped = if text.starts_with("<?") {
            text.find("?>").map(|end| end + 2)
        } else if text.starts_with("<!--") {
            text.find("-->").map(|end| end + 3)
        } else if text.starts_with("<!") {
            text.find('>').map(|end| end + 1)
        } else {
            return text.starts_with("<svg")
                && text[4..].starts_with(|c: char| c.is_whitespace() || c == '>' || c == '/');
        };
        match skipped {
            Some(end) => text = &text[end..],
            None => return false,
        }
    }
}

/// Whether any attribute is an event handler (`onload=`, `onclick =`).
fn has_event_handler(lower: &str) -> bool {
    let bytes = lower.as_bytes();
    lower.match_indices("on").any(|(at, _)| {
        let after_space = at > 0 && bytes[at - 1].is_ascii_whitespace();
        let name_end = bytes[at + 2..]
            .iter()
            .position(|b| !b.is_ascii_alphabetic())
            .map_or(bytes.len(), |n| at + 2 + n);
        let rest = lower[name_end..].trim_start();
        after_space && name_end > at + 2 && rest.starts_with('=')
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A 1×1 PNG.
    pub const PNG_1X1: &[u8] = &[
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44,
        0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f,
        0x15, 0xc4, 0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8,
        0xcf, 0xc0, 0xf0, 0x1f, 0x00, 0x05, 0x00, 0x01, 0xff, 0x89, 0x99, 0x3d, 0x1d, 0x00, 0x00,
        0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
    ];

    /// A PNG header claiming `width`×`height`.
    pub fn png_header(width: u32, height: u32) -> Vec<u8> {
        let mut png = PNG_1X1.to_vec();
        png[16..20].copy_from_slice(&width.to_be_bytes());
        png[20..24].copy_from_slice(&height.to_be_bytes());
        png
    }

    #[test]
    fn the_format_comes_from_the_bytes() {
        let image = check(PNG_1X1.to_vec()).expect("a PNG");
        assert_eq!(image.mime, "image/png");
        assert!(
            image
                .data_uri()
                .starts_with("data:image/png;base64,iVBORw0KGgo")
        );
        let jpeg = [
            0xff, 0xd8, 0xff, 0xe0, 0, 16, b'J', b'F', b'I', b'F', 0, 1, 1, 0, 0, 1, 0, 1, 0, 0,
            0xff, 0xc0, 0, 11, 8, 0, 32, 0, 48, 1, 1, 0x11, 0, 0xff, 0xd9,
        ];
        assert_eq!(check(jpeg.to_vec()).map(|i| i.mime), Ok("image/jpeg"));
    }

    #[test]
    fn what_is_not_an_allowed_image_is_refused() {
        for bytes in [
            b"<html><script>alert(1)</script></html>".to_vec(),
            b"GIF89a\x01\x00\x01\x00\x00\x00\x00;".to_vec(),
            b"BM\x3a\x00\x00\x00".to_vec(),
            vec![],
            vec![0xff; 64],
        ] {
            assert_eq!(
                check(bytes.clone()),
                Err(IconRejected::NotAnImage),
                "{bytes:?}"
            );
        }
    }

    #[test]
    fn size_and_dimensions_are_capped() {
        assert_eq!(
            check(png_header(4096, 16)),
            Err(IconRejected::TooWide(4096, 16))
        );
        assert_eq!(check(png_header(0, 16)), Err(IconRejected::NotAnImage));
        assert!(check(png_header(1024, 1024)).is_ok());
        let mut huge = PNG_1X1.to_vec();
        huge.resize(MAX_ICON_BYTES + 1, 0);
        assert_eq!(check(huge), Err(IconRejected::TooLarge));
    }

    #[test]
    fn a_plain_svg_passes_and_an_active_one_does_not() {
        let plain = br#"<?xml version="1.0"?><!-- logo --><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><circle cx="4" cy="4" r="3" fill="teal"/></svg>"#;
        assert_eq!(check(plain.to_vec()).map(|i| i.mime), Ok("image/svg+xml"));
        for active in [
            r#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#,
            r#"<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>"#,
            r#"<svg xmlns="http://www.w3.org/2000/svg"><rect ONCLICK = "x()"/></svg>"#,
            r#"<svg><foreignObject><div/></foreignObject></svg>"#,
            r#"<svg><a href="javascript:alert(1)"><rect/></a></svg>"#,
        ] {
            assert_eq!(
                check(active.into()),
                Err(IconRejected::ActiveSvg),
                "{active}"
            );
        }
        for not_svg in ["<svgx/>", "<html><svg/></html>", "<!-- never closed <svg/>"] {
            assert_eq!(
                check(not_svg.into()),
                Err(IconRejected::NotAnImage),
                "{not_svg}"
            );
        }
        let words =
            r#"<svg xmlns="http://www.w3.org/2000/svg"><title>icon of a button</title></svg>"#;
        assert!(
            check(words.into()).is_ok(),
            "words containing `on` are not handlers"
        );
    }
}
