//! The OAuth tokens this process has handled (loaded from or saved to the keyring by a
//! connection's token store), so the audit log hides them wherever they turn up, a server
//! echoing its bearer token under an innocent key included. Kept in memory only, per server
//! the newest [`PER_SERVER`] access and refresh tokens; a generation counter tells the audit
//! log when to take the new ones in.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

use gatehouse_mcp::Sensitive;
use gatehouse_mcp::auth::Tokens;

/// How many tokens are kept per server (a refresh replaces the access token, and a server
/// may still echo the one before).
pub const PER_SERVER: usize = 8;

static GENERATION: AtomicU64 = AtomicU64::new(0);

fn seen() -> &'static Mutex<HashMap<String, Vec<Sensitive<String>>>> {
    static SEEN: OnceLock<Mutex<HashMap<String, Vec<Sensitive<String>>>>> = OnceLock::new();
    SEEN.get_or_init(Mutex::default)
}

/// Notes the access and refresh tokens of `server`.
pub fn saw(server: &str, tokens: &Tokens) {
    let values = std::iter::once(&tokens.access_token).chain(tokens.refresh_token.as_ref());
    let mut seen = seen().lock().unwrap_or_else(PoisonError::into_inner);
    let kept = seen.entry(server.to_owned()).or_default();
    let mut changed = false;
    for value in values {
        if !kept.iter().any(|k| k.expose() == value.expose()) {
            kept.push(value.clone());
            changed = true;
        }
    }
    if kept.len() > PER_SERVER {
        let excess = kept.len() - PER_SERVER;
        kept.drain(..excess);
    }
    if changed {
        GENERATION.fetch_add(1, Ordering::Release);
    }
}

/// A number that changes whenever a new token is noted.
pub fn generation() -> u64 {
    GENERATION.load(Ordering::Acquire)
}

/// Every token noted, as plain text for redaction.
pub fn values() -> Vec<String> {
    let seen = seen().lock().unwrap_or_else(PoisonError::into_inner);
    seen.values()
        .flatten()
        .map(|value| value.expose().clone())
        .collect()
}
