//! Result caching (2026-07-28 server/utilities/caching): list and read results carry `ttlMs`
//! (how long they stay fresh) and `cacheScope`. A result is kept under its method and the
//! parameters that shape it (`_meta` left out), served while fresh, and dropped at once when the
//! server says the underlying data changed (`notifications/*/list_changed`,
//! `notifications/resources/updated`).
//!
//! One cache belongs to one connection, and a connection has one authorization context, so both
//! `"public"` and `"private"` results may be reused on it; nothing is shared between connections.
//! Results of multi round-trip retries (with `inputResponses` or `requestState`) and interim
//! `input_required` results are never cached. A missing or negative `ttlMs` counts as 0: stale
//! at once.
//!
//! The cache is bounded by count ([`MAX_CACHED_RESULTS`], 256) and by bytes
//! ([`MAX_CACHED_BYTES`], 16 MiB; a result's size as compact JSON), and a result over
//! [`MAX_RESULT_BYTES`] (4 MiB) is not kept at all. Both bounds are split in two halves:
//! resource reads, and everything else (the lists and `server/discover`). A new result pushes
//! out only results of its own half, so an MCP App view that reads many distinct URIs with large
//! bodies fills at most the reads' half and never evicts the tool list the gate relies on.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use serde_json::Value;
use tokio::time::Instant;

/// How many results one connection keeps, half of them for resource reads. When a new one would
/// pass its half's limit, stale entries go first, then those of its half that would go stale
/// soonest (with a log line).
pub const MAX_CACHED_RESULTS: usize = 256;

/// How many bytes of results one connection keeps, half of them for resource reads.
pub const MAX_CACHED_BYTES: usize = 16 << 20;

/// The largest result kept: a larger one is fetched again each time it is needed.
pub const MAX_RESULT_BYTES: usize = 4 << 20;

/// The methods whose results servers must give caching hints for.
pub const CACHEABLE: &[&str] = &[
    "server/discover",
    "tools/list",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
    "resources/read",
];

#[derive(Debug)]
struct Entry {
    result: Value,
    fresh_until: Instant,
    /// The result's size as compact JSON.
    bytes: usize,
}

/// Which half of the cache a method's results live in: resource reads, or the rest.
fn is_read(method: &str) -> bool {
    method == "resources/read"
}

/// The cached results of one connection.
#[derive(Debug, Default)]
pub struct ResultCache {
    entries: Mutex<Entries>,
}

/// The parameters that identify a result: everything but `_meta`, as JSON text with the keys
/// in order (without copying the parameters).
fn params_key(params: Option<&Value>) -> String {
    match params {
        Some(Value::Object(map)) => {
            let shaping: std::collections::BTreeMap<&String, &Value> =
                map.iter().filter(|(key, _)| *key != "_meta").collect();
            if shaping.is_empty() {
                String::new()
            } else {
                serde_json::to_string(&shaping).unwrap_or_default()
            }
        }
        Some(other) => other.to_string(),
        None => String::new(),
    }
}

/// Whether results of `method` may be cached at all.
pub fn is_cacheable(method: &str) -> bool {
    CACHEABLE.contains(&method)
}

/// Whether a request's result may be cached.
fn cacheable_request(method: &str, params: Option<&Value>) -> bool {
    is_cacheable(method)
        && !params
            .is_some_and(|p| p.get("inputResponses").is_some() || p.get("requestState").is_some())
}

/// How long a result stays fresh, from its `ttlMs` (absent or negative: not at all).
pub fn ttl_of(result: &Value) -> Duration {
    result
        .get("ttlMs")
        .and_then(Value::as_f64)
        .filter(|ms| ms.is_finite() && *ms > 0.0)
        .map_or(Duration::ZERO, |ms| Duration::from_millis(ms as u64))
}

/// Frees room in one half of the cache for a result of `bytes`: stale results first, then those
/// of that half that go stale soonest, until the half holds fewer than half the results and
/// room for `bytes` within half the bytes.
fn make_room(entries: &mut Entries, reads: bool, bytes: usize, now: Instant) {
    let (max_count, max_bytes) = (MAX_CACHED_RESULTS / 2, MAX_CACHED_BYTES / 2);
    let half = |entries: &Entries| {
        entries
            .iter()
            .filter(|((method, _), _)| is_read(method) == reads)
            .fold((0, 0), |(count, total), (_, entry)| {
                (count + 1, total + entry.bytes)
            })
    };
    let full = |(count, total): (usize, usize)| count >= max_count || total + bytes > max_bytes;
    if !full(half(entries)) {
        return;
    }
    entries.retain(|_, entry| entry.fresh_until > now);
    while full(half(entries)) {
        let soonest = entries
            .iter()
            .filter(|((method, _), _)| is_read(method) == reads)
            .min_by_key(|(_, entry)| entry.fresh_until)
            .map(|(key, _)| key.clone());
        let Some(soonest) = soonest else { break };
        tracing::debug!(
            "the result cache's {} half is full; dropping `{}`",
            if reads { "reads'" } else { "lists'" },
            soonest.0
        );
        entries.remove(&soonest);
    }
}

type Entries = HashMap<(String, String), Entry>;

impl ResultCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, Entries> {
        self.entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A fresh cached result for this request, if there is one.
    pub fn get(&self, method: &str, params: Option<&Value>) -> Option<Value> {
        if !cacheable_request(method, params) {
            return None;
        }
        let key = (method.to_owned(), params_key(params));
        let mut entries = self.lock();
        match entries.get(&key) {
            Some(entry) if Instant::now() < entry.fresh_until => Some(entry.result.clone()),
            Some(_) => {
                entries.remove(&key);
                None
            }
            None => None,
        }
    }

    /// Keeps a complete result for as long as its `ttlMs` allows.
    pub fn put(&self, method: &str, params: Option<&Value>, result: &Value) {
        let complete = matches!(
            result.get("resultType").and_then(Value::as_str),
            None | Some("complete")
        );
        let ttl = ttl_of(result);
        if !complete || ttl.is_zero() || !cacheable_request(method, params) {
            return;
        }
        let bytes = crate::json_size::encoded_len(result);
        if bytes > MAX_RESULT_BYTES {
            tracing::debug!("not caching a `{method}` result of {bytes} bytes");
            return;
        }
        let now = Instant::now();
        let key = (method.to_owned(), params_key(params));
        let mut entries = self.lock();
        entries.remove(&key);
        make_room(&mut entries, is_read(method), bytes, now);
        entries.insert(
            key,
            Entry {
                result: result.clone(),
                // A ttl too long to add is as good as forever.
                fresh_until: now
                    .checked_add(ttl)
                    .unwrap_or(now + Duration::from_secs(86400 * 365)),
                bytes,
            },
        );
    }

    /// How many bytes the cached results take.
    pub fn bytes(&self) -> usize {
        self.lock().values().map(|entry| entry.bytes).sum()
    }

    /// When the earliest cached result of `method` goes stale; `None` if none is cached.
    pub fn fresh_until(&self, method: &str) -> Option<Instant> {
        self.lock()
            .iter()
            .filter(|((m, _), _)| m == method)
            .map(|(_, entry)| entry.fresh_until)
            .min()
    }

    /// Drops every cached result of `method`.
    pub fn invalidate(&self, method: &str) {
        self.lock().retain(|(m, _), _| m != method);
    }

    /// Drops the cached reads of one resource.
    pub fn invalidate_read(&self, uri: &str) {
        self.lock().retain(|(m, params), _| {
            m != "resources/read"
                || serde_json::from_str::<Value>(params)
                    .ok()
                    .and_then(|p| p.get("uri").and_then(Value::as_str).map(|u| u != uri))
                    .unwrap_or(true)
        });
    }

    /// Drops what a change notification makes stale ("Interaction with Notifications").
    pub fn on_notification(&self, method: &str, params: Option<&Value>) {
        match method {
            "notifications/tools/list_changed" => self.invalidate("tools/list"),
            "notifications/prompts/list_changed" => self.invalidate("prompts/list"),
            "notifications/resources/list_changed" => {
                self.invalidate("resources/list");
                self.invalidate("resources/templates/list");
            }
            "notifications/resources/updated" => {
                if let Some(uri) = params.and_then(|p| p.get("uri")).and_then(Value::as_str) {
                    self.invalidate_read(uri);
                }
            }
            _ => {}
        }
    }

    /// Forgets everything (after the connection was re-established, for example).
    pub fn clear(&self) {
        self.lock().clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[tokio::test(start_paused = true)]
    async fn a_result_is_served_while_fresh_and_not_after() {
        let cache = ResultCache::default();
        let result = json!({"tools": [], "ttlMs": 1000, "cacheScope": "public"});
        cache.put("tools/list", None, &result);
        assert_eq!(cache.get("tools/list", None), Some(result));
        tokio::time::advance(Duration::from_millis(1001)).await;
        assert_eq!(cache.get("tools/list", None), None, "stale after ttlMs");
    }

    #[test]
    fn zero_missing_or_negative_ttl_is_never_kept() {
        let cache = ResultCache::default();
        for result in [
            json!({"tools": [], "ttlMs": 0}),
            json!({"tools": []}),
            json!({"tools": [], "ttlMs": -5}),
        ] {
            cache.put("tools/list", None, &result);
            assert_eq!(cache.get("tools/list", None), None, "{result}");
        }
    }

    #[test]
    fn the_key_is_the_method_and_its_parameters_without_meta() {
        let cache = ResultCache::default();
        let page2 = json!({"cursor": "2", "_meta": {"progressToken": 1}});
        let result = json!({"tools": [{"name": "b"}], "ttlMs": 60000});
        cache.put("tools/list", Some(&page2), &result);
        assert_eq!(
            cache.get("tools/list", Some(&json!({"cursor": "2"}))),
            Some(result)
        );
        assert_eq!(cache.get("tools/list", None), None, "another page");
        assert_eq!(
            cache.get("prompts/list", Some(&page2)),
            None,
            "another method"
        );
    }

    #[test]
    fn retries_interim_results_and_uncacheable_methods_are_not_kept() {
        let cache = ResultCache::default();
        let read = json!({"uri": "a://x", "inputResponses": {}});
        cache.put(
            "resources/read",
            Some(&read),
            &json!({"contents": [], "ttlMs": 60000}),
        );
        assert_eq!(cache.get("resources/read", Some(&read)), None);
        let plain = json!({"uri": "a://x"});
        cache.put(
            "resources/read",
            Some(&plain),
            &json!({"resultType": "input_required", "ttlMs": 60000}),
        );
        assert_eq!(cache.get("resources/read", Some(&plain)), None);
        cache.put("tools/call", None, &json!({"content": [], "ttlMs": 60000}));
        assert_eq!(cache.get("tools/call", None), None);
    }

    #[test]
    fn the_cache_keeps_a_bounded_number_of_results() {
        let cache = ResultCache::default();
        for n in 0..MAX_CACHED_RESULTS * 4 {
            let params = json!({ "uri": format!("a://{n}") });
            cache.put(
                "resources/read",
                Some(&params),
                &json!({"contents": [], "ttlMs": 60000}),
            );
        }
        let kept = (0..MAX_CACHED_RESULTS * 4)
            .filter(|n| {
                let params = json!({ "uri": format!("a://{n}") });
                cache.get("resources/read", Some(&params)).is_some()
            })
            .count();
        assert_eq!(
            kept,
            MAX_CACHED_RESULTS / 2,
            "at most the reads' half of the limit, and the newest are kept"
        );
        let newest = json!({ "uri": format!("a://{}", MAX_CACHED_RESULTS * 4 - 1) });
        assert!(cache.get("resources/read", Some(&newest)).is_some());
    }

    /// An MCP App view reads whatever URIs it likes through its server's connection.
    #[test]
    fn many_large_reads_fill_only_the_reads_half_of_the_bytes() {
        let cache = ResultCache::default();
        let tools = json!({"tools": [{"name": "t"}], "ttlMs": 60000});
        cache.put("tools/list", None, &tools);
        let body = "x".repeat(256 << 10);
        for n in 0..600 {
            let params = json!({ "uri": format!("ui://app/{n}") });
            let read = json!({"contents": [{"uri": "ui://app", "text": body}], "ttlMs": 60000});
            cache.put("resources/read", Some(&params), &read);
        }
        assert!(
            cache.bytes() <= MAX_CACHED_BYTES,
            "the cache holds {} bytes, past its limit of {MAX_CACHED_BYTES}",
            cache.bytes()
        );
        assert_eq!(
            cache.get("tools/list", None),
            Some(tools),
            "reads never push the tool list out"
        );
        let newest = json!({ "uri": "ui://app/599" });
        assert!(cache.get("resources/read", Some(&newest)).is_some());
        let huge = json!({"contents": [{"text": "y".repeat(MAX_RESULT_BYTES)}], "ttlMs": 60000});
        let params = json!({ "uri": "ui://app/huge" });
        cache.put("resources/read", Some(&params), &huge);
        assert_eq!(
            cache.get("resources/read", Some(&params)),
            None,
            "a result larger than {MAX_RESULT_BYTES} bytes is not kept"
        );
    }

    #[test]
    fn change_notifications_invalidate_what_they_name() {
        let cache = ResultCache::default();
        let keep = json!({"ttlMs": 60000});
        let a = json!({"uri": "a://x"});
        let b = json!({"uri": "b://y"});
        cache.put("tools/list", None, &keep);
        cache.put("prompts/list", None, &keep);
        cache.put("resources/read", Some(&a), &keep);
        cache.put("resources/read", Some(&b), &keep);
        cache.on_notification("notifications/tools/list_changed", None);
        assert_eq!(cache.get("tools/list", None), None);
        assert!(cache.get("prompts/list", None).is_some());
        cache.on_notification(
            "notifications/resources/updated",
            Some(&json!({"uri": "a://x"})),
        );
        assert_eq!(cache.get("resources/read", Some(&a)), None);
        assert!(cache.get("resources/read", Some(&b)).is_some());
    }
}
