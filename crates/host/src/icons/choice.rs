//! Which of a server's declared icons to try, best first: only `https:` and `data:` sources
//! (2025-11-25 basic/index, "Security considerations": every other scheme is refused), a MIME
//! hint outside the allowlist skipped, the window's theme preferred, then a size near the
//! list's 32 pixels.

use serde_json::Value;
use url::Url;

/// How many of the declared icons are tried before giving up.
pub const MAX_TRIED: usize = 3;
/// The size the window shows icons at (the list's rows and the detail's header), doubled for
/// high-density screens.
const WANTED_PIXELS: u32 = 64;
const ALLOWED_HINTS: [&str; 5] = [
    "image/png",
    "image/jpeg",
    "image/jpg",
    "image/webp",
    "image/svg+xml",
];

/// Where an icon's bytes come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IconSource {
    /// A `data:` URI, decoded locally.
    Inline(String),
    /// An `https:` URL, fetched without credentials.
    Remote(Url),
}

impl IconSource {
    /// The source as the server wrote it, to key the cache.
    pub fn key(&self) -> &str {
        match self {
            IconSource::Inline(uri) => uri,
            IconSource::Remote(url) => url.as_str(),
        }
    }
}

/// The icons worth trying from a server's `icons` list, best first, at most [`MAX_TRIED`];
/// `theme` is the window's (`light` or `dark`).
pub fn candidates(icons: Option<&Value>, theme: Option<&str>) -> Vec<IconSource> {
    let Some(list) = icons.and_then(Value::as_array) else {
        return Vec::new();
    };
    let mut ranked: Vec<(u32, usize, IconSource)> = list
        .iter()
        .enumerate()
        .filter_map(|(order, icon)| {
            let source = source(icon.get("src")?.as_str()?)?;
            let hint = icon.get("mimeType").and_then(Value::as_str);
            if hint.is_some_and(|h| !ALLOWED_HINTS.contains(&h.to_ascii_lowercase().as_str())) {
                return None;
            }
            Some((rank(icon, theme), order, source))
        })
        .collect();
    ranked.sort_by_key(|(rank, order, _)| (*rank, *order));
    ranked
        .into_iter()
        .map(|(_, _, source)| source)
        .take(MAX_TRIED)
        .collect()
}

/// A `src` the host may use: `data:` or `https:`, never `http:`, `file:`, `javascript:` or an
/// app's own scheme.
fn source(src: &str) -> Option<IconSource> {
    let scheme_end = src.find(':')?;
    match src[..scheme_end].to_ascii_lowercase().as_str() {
        "data" => Some(IconSource::Inline(src.to_owned())),
        "https" => Url::parse(src)
            .ok()
            .filter(|url| {
                url.host_str().is_some() && url.username().is_empty() && url.password().is_none()
            })
            .map(IconSource::Remote),
        _ => None,
    }
}

/// Lower is better: a theme that fits the window, then a size near [`WANTED_PIXELS`] (larger
/// before smaller), scalable icons as good as an exact size.
fn rank(icon: &Value, theme: Option<&str>) -> u32 {
    let theme_rank = match (icon.get("theme").and_then(Value::as_str), theme) {
        (Some(given), Some(wanted)) if given == wanted => 0,
        (None, _) => 1,
        (Some(_), None) => 1,
        _ => 2,
    };
    let sizes: Vec<&str> = icon
        .get("sizes")
        .and_then(Value::as_array)
        .map(|sizes| sizes.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let size_rank = sizes
        .iter()
        .map(|size| size_distance(size))
        .min()
        .unwrap_or(1_000);
    theme_rank * 100_000 + size_rank
}

/// How far a `WxH` (or `any`) size is from the wanted one; smaller ones cost double.
fn size_distance(size: &str) -> u32 {
    if size.eq_ignore_ascii_case("any") {
        return 0;
    }
    let width = size
        .split(['x', 'X'])
        .next()
        .and_then(|w| w.parse::<u32>().ok());
    match width {
        Some(w) if w >= WANTED_PIXELS => (w - WANTED_PIXELS).min(50_000),
        Some(w) => ((WANTED_PIXELS - w) * 2).min(50_000),
        None => 1_000,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn keys(icons: Value, theme: Option<&str>) -> Vec<String> {
        candidates(Some(&icons), theme)
            .iter()
            .map(|c| c.key().to_owned())
            .collect()
    }

    #[test]
    fn only_https_and_data_sources_are_tried() {
        let icons = json!([
            {"src": "file:///etc/passwd"},
            {"src": "javascript:alert(1)"},
            {"src": "http://example.com/a.png"},
            {"src": "ftp://example.com/a.png"},
            {"src": "ws://example.com/a"},
            {"src": "tauri://localhost/icon.png"},
            {"src": "/relative/icon.png"},
            {"src": "https://user:pw@example.com/a.png"},
            {"src": 7},
            {"src": "HTTPS://example.com/ok.png"},
            {"src": "data:image/png;base64,AAAA"},
        ]);
        assert_eq!(
            keys(icons, None),
            ["https://example.com/ok.png", "data:image/png;base64,AAAA"]
        );
        assert!(candidates(Some(&json!("not a list")), None).is_empty());
        assert!(candidates(None, None).is_empty());
    }

    #[test]
    fn a_mime_hint_outside_the_allowlist_is_skipped() {
        let icons = json!([
            {"src": "https://a.example/x.gif", "mimeType": "image/gif"},
            {"src": "https://a.example/x.html", "mimeType": "text/html"},
            {"src": "https://a.example/x.svg", "mimeType": "image/svg+xml"},
        ]);
        assert_eq!(keys(icons, None), ["https://a.example/x.svg"]);
    }

    #[test]
    fn the_theme_then_the_size_decide_and_at_most_three_are_tried() {
        let icons = json!([
            {"src": "https://a.example/dark16.png", "theme": "dark", "sizes": ["16x16"]},
            {"src": "https://a.example/light.png", "theme": "light", "sizes": ["64x64"]},
            {"src": "https://a.example/dark512.png", "theme": "dark", "sizes": ["512x512"]},
            {"src": "https://a.example/dark64.png", "theme": "dark", "sizes": ["48x48", "64x64"]},
            {"src": "https://a.example/any.png"},
        ]);
        assert_eq!(
            keys(icons.clone(), Some("dark")),
            [
                "https://a.example/dark64.png",
                "https://a.example/dark16.png",
                "https://a.example/dark512.png"
            ]
        );
        assert_eq!(
            keys(icons, Some("light")),
            [
                "https://a.example/light.png",
                "https://a.example/any.png",
                "https://a.example/dark64.png"
            ]
        );
    }
}
