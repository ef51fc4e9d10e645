//! The views the window has open, by an unguessable token: the sandbox scheme looks a proxy
//! page's `view=<token>` up here to send that view's Content-Security-Policy as a header, and
//! answers nothing for a token it does not hold. Each view has its own webview, named when the
//! view is opened (`app-view-<n>`), and the scheme serves a view's pages and relays its messages
//! only to that webview. The table holds at most [`MAX_OPEN_VIEWS`]; opening one more forgets
//! the oldest (the shell then closes its webview). Closing or forgetting a view also ends what
//! it still has running: each entry holds the sender of a channel its calls wait on
//! ([`OpenViews::ended`]).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use tokio::sync::watch;

use super::placement::ViewPlacement;

/// The start of every view webview's label; the number after it is never reused.
pub const VIEW_WEBVIEW_PREFIX: &str = "app-view-";

/// How many views may be open at once before the oldest is forgotten.
pub const MAX_OPEN_VIEWS: usize = 32;

/// What the shell keeps about an open view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ViewEntry {
    pub server_id: String,
    pub uri: String,
    /// The view's Content-Security-Policy (`AppView.policy`).
    pub policy: String,
    /// Who the view is to the gate (`view <uuid>`, never its token): its own share of the
    /// approval queue, and the caller its grants are bound to.
    pub caller: String,
}

/// One open view: its token, what is kept about it, its webview, and the sender whose drop
/// (when the view is closed or forgotten) ends the calls it still has running.
#[derive(Debug)]
struct Open {
    token: String,
    entry: ViewEntry,
    ended: watch::Sender<()>,
    webview: String,
    /// Whether its webview was asked for (it is created once).
    created: bool,
    /// Where the window last asked it to show.
    placement: Option<ViewPlacement>,
}

/// What to do with a view's webview after the window placed the view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    /// The webview's label.
    pub webview: String,
    /// True the first time: the webview is to be created.
    pub create: bool,
}

/// The open views (app state), oldest first.
#[derive(Debug, Default)]
pub struct OpenViews {
    views: Mutex<VecDeque<Open>>,
    next_webview: AtomicU64,
}

impl OpenViews {
    fn lock(&self) -> MutexGuard<'_, VecDeque<Open>> {
        self.views.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Records a view and returns its new token; past [`MAX_OPEN_VIEWS`] the oldest is forgotten.
    pub fn open(&self, entry: ViewEntry) -> String {
        let token = new_token();
        let webview = format!(
            "{VIEW_WEBVIEW_PREFIX}{}",
            self.next_webview.fetch_add(1, Ordering::Relaxed)
        );
        let mut views = self.lock();
        while views.len() >= MAX_OPEN_VIEWS {
            if let Some(oldest) = views.pop_front() {
                tracing::info!(
                    "{MAX_OPEN_VIEWS} app views are open: forgetting the oldest ({} of {})",
                    oldest.entry.uri,
                    oldest.entry.server_id
                );
            }
        }
        views.push_back(Open {
            token: token.clone(),
            entry,
            ended: watch::Sender::new(()),
            webview,
            created: false,
            placement: None,
        });
        token
    }

    /// The view with this token, if it is open.
    pub fn get(&self, token: &str) -> Option<ViewEntry> {
        self.lock()
            .iter()
            .find(|open| open.token == token)
            .map(|open| open.entry.clone())
    }

    /// The label of the webview of the view with this token, if it is open.
    pub fn webview_of(&self, token: &str) -> Option<String> {
        self.lock()
            .iter()
            .find(|open| open.token == token)
            .map(|open| open.webview.clone())
    }

    /// Whether the webview labelled `webview` is the one of the view with this token.
    pub fn is_webview_of(&self, token: &str, webview: &str) -> bool {
        self.webview_of(token).as_deref() == Some(webview)
    }

    /// The labels of the open views' webviews (a view webview not listed is to be closed).
    pub fn webviews(&self) -> Vec<String> {
        self.lock()
            .iter()
            .map(|open| open.webview.clone())
            .collect()
    }

    /// Keeps where the window wants the view shown; `None` if the view is not open.
    pub fn place(&self, token: &str, placement: ViewPlacement) -> Option<Placed> {
        let mut views = self.lock();
        let open = views.iter_mut().find(|open| open.token == token)?;
        open.placement = Some(placement);
        let create = !open.created;
        open.created = true;
        Some(Placed {
            webview: open.webview.clone(),
            create,
        })
    }

    /// Where the window last asked the view with this token to show.
    pub fn placement(&self, token: &str) -> Option<ViewPlacement> {
        self.lock()
            .iter()
            .find(|open| open.token == token)
            .and_then(|open| open.placement)
    }

    /// The view with this token, if it is open, and a future that completes once it is closed
    /// or forgotten (at once if it already is).
    pub fn ended(
        &self,
        token: &str,
    ) -> Option<(ViewEntry, impl std::future::Future<Output = ()> + use<>)> {
        let views = self.lock();
        let open = views.iter().find(|open| open.token == token)?;
        let mut closed = open.ended.subscribe();
        let ended = async move {
            // Nothing is ever sent: this returns when the sender is dropped with the entry.
            while closed.changed().await.is_ok() {}
        };
        Some((open.entry.clone(), ended))
    }

    /// Forgets a view; the label of its webview, or `None` if no view had that token.
    pub fn close(&self, token: &str) -> Option<String> {
        let mut views = self.lock();
        let at = views.iter().position(|open| open.token == token)?;
        views.remove(at).map(|open| open.webview)
    }

    /// Forgets every view; the labels of their webviews.
    pub fn close_all(&self) -> Vec<String> {
        self.lock().drain(..).map(|open| open.webview).collect()
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

/// The view token a URL names (`view=<token>`), if it has the shape [`OpenViews::open`] gives.
pub fn token_in(url: &url::Url) -> Option<String> {
    let token = url
        .query_pairs()
        .find(|(k, _)| k == "view")
        .map(|(_, v)| v.into_owned())?;
    well_formed(&token).then_some(token)
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
            caller: "view test".into(),
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
        assert!(views.close(&token).is_some());
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
        assert!(views.close(&a).is_some());
        assert!(views.close(&a).is_none(), "a view is closed once");
        assert_eq!(views.get(&a), None);
        assert_eq!(views.get(&b), Some(entry(2)));
    }

    #[test]
    fn each_view_has_its_own_webview_created_once() {
        let views = OpenViews::default();
        let a = views.open(entry(1));
        let b = views.open(entry(2));
        let label_a = views.webview_of(&a).expect("open");
        let label_b = views.webview_of(&b).expect("open");
        assert!(label_a.starts_with(VIEW_WEBVIEW_PREFIX), "{label_a}");
        assert_ne!(label_a, label_b, "one webview per view");
        assert!(views.is_webview_of(&a, &label_a));
        assert!(
            !views.is_webview_of(&a, &label_b) && !views.is_webview_of(&a, "main"),
            "a view's pages and relay answer only its own webview"
        );
        let shown = crate::apps::placement::ViewPlacement {
            visible: true,
            x: 0,
            y: 0,
            width: 10,
            height: 10,
            view_width: 10,
            view_height: 10,
            offset_x: 0,
            offset_y: 0,
        };
        let first = views.place(&a, shown).expect("open");
        assert_eq!(
            first,
            Placed {
                webview: label_a.clone(),
                create: true
            }
        );
        let moved = crate::apps::placement::ViewPlacement { x: 5, ..shown };
        assert!(
            !views.place(&a, moved).expect("open").create,
            "created once"
        );
        assert_eq!(
            views.placement(&a),
            Some(moved),
            "the latest placement is kept"
        );
        assert_eq!(views.close(&a), Some(label_a.clone()));
        assert_eq!(views.webviews(), vec![label_b.clone()]);
        assert_eq!(
            views.close_all(),
            vec![label_b],
            "a reloaded window forgets them all"
        );
        assert!(views.webviews().is_empty());
        assert!(
            views.place(&a, shown).is_none(),
            "a closed view is placed nowhere"
        );
    }
}
