//! Servers' icons (`serverInfo.icons`, 2025-11-25 basic/index "icons"), made safe to show: a
//! declared icon is tried only from `data:` or `https:` (for a remote server only on its own
//! origin), fetched without credentials and under a size cap, and shown only if its bytes are a
//! PNG, JPEG, WebP or script-free SVG within the size and dimension caps. The window receives
//! the checked image as a `data:` URI, never an address to load. Results, shown or refused, are
//! kept per server and source in a cache bounded by count and bytes.

pub mod choice;
pub mod data_uri;
pub mod fetch;
pub mod image_check;

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::Value;
use url::Url;

use choice::IconSource;
use image_check::IconRejected;

/// Cached results, by count and by the bytes of the data URIs kept.
const MAX_CACHED: usize = 256;
const MAX_CACHED_BYTES: usize = 8 * 1024 * 1024;

/// Where a server's remote icons may come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IconOrigin {
    /// A local (stdio) server, which could reach the network itself: any `https:` host.
    Any,
    /// A remote server: only its own origin, so a server cannot make the host call a third
    /// party (the spec's "Verify that icon URIs are from the same origin as the server").
    Same(Url),
}

impl IconOrigin {
    fn admits(&self, url: &Url) -> bool {
        match self {
            IconOrigin::Any => true,
            IconOrigin::Same(server) => server.origin() == url.origin(),
        }
    }
}

/// The engine's icon resolver: one HTTP client, made on first use, and the cache.
pub struct ServerIcons {
    client: OnceLock<Option<reqwest::Client>>,
    cache: Mutex<VecDeque<(String, Option<Arc<str>>)>>,
}

impl std::fmt::Debug for ServerIcons {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerIcons").finish_non_exhaustive()
    }
}

impl Default for ServerIcons {
    fn default() -> Self {
        Self::new()
    }
}

impl ServerIcons {
    pub fn new() -> Self {
        Self {
            client: OnceLock::new(),
            cache: Mutex::new(VecDeque::new()),
        }
    }

    /// A resolver fetching with `client` (the tests' trusts their own certificate authority).
    pub fn with_client(client: reqwest::Client) -> Self {
        let icons = Self::new();
        let _ = icons.client.set(Some(client));
        icons
    }

    /// The best of `icons` that passes every check, as a `data:` URI; `None` when none does.
    pub async fn resolve(
        &self,
        server: &str,
        icons: Option<&Value>,
        theme: Option<&str>,
        origin: &IconOrigin,
    ) -> Option<String> {
        for source in choice::candidates(icons, theme) {
            let key = format!("{server}\n{}", source.key());
            let outcome = match self.cached(&key) {
                Some(known) => known,
                None => {
                    let outcome = match self.load(&source, origin).await {
                        Ok(uri) => Some(Arc::<str>::from(uri)),
                        Err(reason) => {
                            tracing::info!(server, icon = %truncated(source.key()), %reason, "server icon not shown");
                            None
                        }
                    };
                    self.remember(key, outcome.clone());
                    outcome
                }
            };
            if let Some(uri) = outcome {
                return Some(uri.to_string());
            }
        }
        None
    }

    async fn load(&self, source: &IconSource, origin: &IconOrigin) -> Result<String, IconRejected> {
        let bytes = match source {
            IconSource::Inline(uri) => data_uri::decode(uri)?,
            IconSource::Remote(url) => {
                if !origin.admits(url) {
                    return Err(IconRejected::Origin(url.origin().ascii_serialization()));
                }
                let client = self
                    .client
                    .get_or_init(|| fetch::client_builder().build().ok())
                    .as_ref()
                    .ok_or_else(|| IconRejected::Fetch("no HTTP client".to_owned()))?;
                fetch::fetch(client, url).await?
            }
        };
        Ok(image_check::check(bytes)?.data_uri())
    }

    fn cached(&self, key: &str) -> Option<Option<Arc<str>>> {
        let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone())
    }

    fn remember(&self, key: String, outcome: Option<Arc<str>>) {
        let weight =
            |(k, v): &(String, Option<Arc<str>>)| k.len() + v.as_ref().map_or(0, |v| v.len());
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.retain(|(k, _)| *k != key);
        cache.push_back((key, outcome));
        let mut bytes: usize = cache.iter().map(weight).sum();
        while cache.len() > MAX_CACHED || (cache.len() > 1 && bytes > MAX_CACHED_BYTES) {
            if let Some(oldest) = cache.pop_front() {
                bytes -= weight(&oldest);
            }
        }
    }

    /// Forgets what was resolved for `server` (removed, or its icons may have changed).
    pub fn forget(&self, server: &str) {
        let prefix = format!("{server}\n");
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.retain(|(k, _)| !k.starts_with(&prefix));
    }
}

/// An address for the log, cut short (a data URI can be 170 KB).
fn truncated(text: &str) -> &str {
    let end = text.char_indices().nth(80).map_or(text.len(), |(at, _)| at);
    &text[..end]
}

#[cfg(test)]
mod tests {
    use super::image_check::tests::{PNG_1X1, png_header};
    use super::*;
    use base64::Engine;
    use base64::engine::general_purpose::STANDARD;
    use serde_json::json;

    fn inline(bytes: &[u8]) -> String {
        format!("data:image/png;base64,{}", STANDARD.encode(bytes))
    }

    #[tokio::test]
    async fn the_first_icon_that_passes_is_shown_as_a_data_uri() {
        let icons = ServerIcons::new();
        let declared = json!([
            {"src": "data:image/png;base64,PGh0bWw+PC9odG1sPg=="},
            {"src": inline(&png_header(4096, 4096))},
            {"src": inline(PNG_1X1), "mimeType": "image/jpeg"},
        ]);
        let shown = icons
            .resolve("s1", Some(&declared), None, &IconOrigin::Any)
            .await;
        assert_eq!(shown.as_deref(), Some(inline(PNG_1X1).as_str()));
        assert_eq!(
            icons
                .resolve("s1", Some(&json!([])), None, &IconOrigin::Any)
                .await,
            None
        );
    }

    #[tokio::test]
    async fn a_remote_server_icon_on_another_origin_is_not_fetched() {
        let icons = ServerIcons::new();
        let server = Url::parse("https://mcp.example.com/mcp").expect("url");
        let other =
            IconSource::Remote(Url::parse("https://tracker.example.net/i.png").expect("url"));
        assert_eq!(
            icons.load(&other, &IconOrigin::Same(server)).await,
            Err(IconRejected::Origin(
                "https://tracker.example.net".to_owned()
            ))
        );
    }

    #[test]
    fn the_cache_is_bounded_by_count_and_bytes() {
        let icons = ServerIcons::new();
        for n in 0..(MAX_CACHED + 10) {
            icons.remember(format!("s\n{n}"), None);
        }
        assert_eq!(icons.cache.lock().expect("cache").len(), MAX_CACHED);
        let big: Arc<str> = "x".repeat(MAX_CACHED_BYTES / 4).into();
        for n in 0..8 {
            icons.remember(format!("t\n{n}"), Some(big.clone()));
        }
        let cache = icons.cache.lock().expect("cache");
        let bytes: usize = cache
            .iter()
            .map(|(k, v)| k.len() + v.as_ref().map_or(0, |v| v.len()))
            .sum();
        assert!(bytes <= MAX_CACHED_BYTES, "{bytes}");
        drop(cache);
        icons.forget("t");
        assert!(icons.cached("t\n7").is_none());
    }
}
