//! The views the window has open, by an unguessable token: the sandbox scheme looks a proxy
//! page's `view=<token>` up here to send that view's Content-Security-Policy as a header, and
//! answers nothing for a token it does not hold. The table holds at most [`MAX_OPEN_VIEWS`];
//! opening one more forgets the oldest (its frame keeps the page it already loaded, but can no
//! longer load the proxy again). Closing or forgetting a view also ends what it still has
//! running: each entry holds the sender of a channel its calls wait on ([`OpenViews::ended`]).

use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard, PoisonError};

use tokio::sync::watch;

/// How many views may be open at once before the oldest is forgotten.
pub const MAX_OPEN_VIEWS: usize = 32;

/// What the shell keeps about an open view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ViewEntry {
    pub server_id: String,
    pub uri: String,
    /// The view's Content-Security-Policy (`AppView.policy`).
    pub policy: String,
}

/// One open view: its token, what is kept about it, and the sender whose drop (when the view
/// is closed or forgotten) ends the calls it still has running.
type Open = (String, ViewEntry, watch::Sender<()>);

/// The open views (app state), oldest first.
#[derive(Debug, Default)]
pub struct OpenViews {
    views: Mutex<VecDeque<Open>>,
}

impl OpenViews {
    fn lock(&self) -> MutexGuard<'_, VecDeque<Open>> {
        self.views.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Records a view and returns its new token; past [`MAX_OPEN_VIEWS`] the oldest is forgotten.
    pub fn open(&self, entry: ViewEntry) -> String {
        let token = new_token();
        let mut views = self.lock();
        while views.len() >= MAX_OPEN_VIEWS {
            if let Some((_, oldest, _)) = views.pop_front() {
                tracing::info!(
                    "{MAX_OPEN_VIEWS} app views are open: forgetting the oldest ({} of {})",
                    oldest.uri,
                    oldest.server_id
                );
            }
        }
        views.push_back((token.clone(), entry, watch::Sender::new(())));
        token
    }

    /// The view with this token, if it is open.
    pub fn get(&self, token: &str) -> Option<ViewEntry> {
        self.lock()
            .iter()
            .find(|(t, ..)| t == token)
            .map(|(_, entry, _)| entry.clone())
    }

    /// The view with this token, if it is open, and a future that completes once it is closed
    /// or forgotten (at once if it already is).
    pub fn ended(
        &self,
        token: &str,
    ) -> Option<(ViewEntry, impl std::future::Future<Output = ()> + use<>)> {
        let views = self.lock();
        let (_, entry, sender) = views.iter().find(|(t, ..)| t == token)?;
        let mut closed = sender.subscribe();
        let ended = async move {
            // Nothing is ever sent: this returns when the sender is dropped with the entry.
            while closed.changed().await.is_ok() {}
        };
        Some((entry.clone(), ended))
    }

    /// Forgets a view; false if no view had that token.
    pub fn close(&self, token: &str) -> bool {
        let mut views = self.lock();
        let before = views.len();
        views.retain(|(t, ..)| t != token);
        views.len() != before
    }

    /// How many views are open.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.lock().len()
    }
}

/// 244 random bits (two v4 UUIDs), as 64 hex digits.
fn new_token() -> String {
    format!(
        "{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    )
}

/// Whether `token` has the shape [`OpenViews::open`] gives (the scheme refuses other shapes
/// before looking them up).
pub fn well_formed(token: &str) -> bool {
    token.len() == 64 && token.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(n: usize) -> ViewEntry {
        ViewEntry {
            server_id: "s".into(),
            uri: format!("ui://app/{n}"),
            policy: format!("default-src 'none'; img-src data: /* {n} */"),
        }
    }

    #[test]
    fn the_table_is_bounded_and_forgets_the_oldest() {
        let views = OpenViews::default();
        let tokens: Vec<String> = (0..MAX_OPEN_VIEWS + 2)
            .map(|n| views.open(entry(n)))
            .collect();
        assert_eq!(views.len(), MAX_OPEN_VIEWS);
        assert_eq!(views.get(&tokens[0]), None, "the oldest is forgotten first");
        assert_eq!(views.get(&tokens[1]), None);
        assert_eq!(views.get(&tokens[2]), Some(entry(2)));
        assert_eq!(
            views.get(&tokens[MAX_OPEN_VIEWS + 1]),
            Some(entry(MAX_OPEN_VIEWS + 1))
        );
    }

    #[tokio::test]
    async fn closing_a_view_ends_what_waits_on_it() {
        let views = OpenViews::default();
        let token = views.open(entry(1));
        let (kept, ended) = views.ended(&token).expect("open");
        assert_eq!(kept, entry(1));
        let mut ended = std::pin::pin!(ended);
        let early =
            tokio::time::timeout(std::time::Duration::from_millis(50), ended.as_mut()).await;
        assert!(early.is_err(), "an open view has not ended");
        assert!(views.close(&token));
        tokio::time::timeout(std::time::Duration::from_secs(1), ended)
            .await
            .expect("closing ends it");
        assert!(views.ended(&token).is_none(), "a closed view is not found");

        let first = views.open(entry(2));
        let (_, evicted) = views.ended(&first).expect("open");
        for n in 0..MAX_OPEN_VIEWS {
            views.open(entry(n));
        }
        tokio::time::timeout(std::time::Duration::from_secs(1), evicted)
            .await
            .expect("forgetting the oldest ends it too");
    }

    #[test]
    fn tokens_are_unguessable_and_closing_forgets() {
        let views = OpenViews::default();
        let a = views.open(entry(1));
        let b = views.open(entry(2));
        assert_ne!(a, b);
        assert!(well_formed(&a) && well_formed(&b), "{a} {b}");
        assert!(!well_formed("../etc") && !well_formed(""));
        assert!(views.close(&a));
        assert!(!views.close(&a), "a view is closed once");
        assert_eq!(views.get(&a), None);
        assert_eq!(views.get(&b), Some(entry(2)));
    }
}
