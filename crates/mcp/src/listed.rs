//! What a connection last listed in full of the server's resources, resource templates and
//! prompts: their URIs and names only, kept so that a host can tell which server a URI or a
//! prompt belongs to without listing every server again for each request. Dropped when the
//! server says they changed (`notifications/resources/list_changed`,
//! `notifications/prompts/list_changed`); a listing that was under way when such a notice came is
//! not kept, and neither is one of more than [`MAX_KEPT_ENTRIES`] entries or [`MAX_KEPT_BYTES`]
//! of them (it is listed again when needed). What is kept may still be behind a server that
//! changes its lists without saying so: a URI or name not found here is for the host to look
//! for in a fresh listing.

use std::sync::{Arc, Mutex};

/// The most entries (of each listing) kept for one connection.
pub const MAX_KEPT_ENTRIES: usize = 10_000;

/// The most bytes of URIs or names (of each listing) kept for one connection.
pub const MAX_KEPT_BYTES: usize = 1 << 20;

/// The URIs and names of the last full listings of one connection.
#[derive(Debug, Default)]
pub struct Listed {
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// Moves on every change notice, so that a listing that began before one is not kept.
    epoch: u64,
    resources: Option<Arc<[String]>>,
    templates: Option<Arc<[String]>>,
    prompts: Option<Arc<[String]>>,
}

/// Which listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listing {
    /// Resources, by URI.
    Resources,
    /// Resource templates, by URI template.
    Templates,
    /// Prompts, by name.
    Prompts,
}

impl Listed {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Where the change notices stand: taken before a listing is requested, and given back to
    /// [`Listed::keep`] with its result.
    pub fn epoch(&self) -> u64 {
        self.lock().epoch
    }

    /// Keeps the URIs or names of a full listing requested at `epoch`, unless a change notice
    /// came since or there are too many (by count or bytes).
    pub fn keep(&self, listing: Listing, epoch: u64, uris: impl ExactSizeIterator<Item = String>) {
        if uris.len() > MAX_KEPT_ENTRIES {
            return;
        }
        let uris: Arc<[String]> = uris.collect();
        if uris.iter().map(String::len).sum::<usize>() > MAX_KEPT_BYTES {
            return;
        }
        let mut state = self.lock();
        if state.epoch != epoch {
            return;
        }
        match listing {
            Listing::Resources => state.resources = Some(uris),
            Listing::Templates => state.templates = Some(uris),
            Listing::Prompts => state.prompts = Some(uris),
        }
    }

    /// The URIs or names of the last full listing, if kept.
    pub fn get(&self, listing: Listing) -> Option<Arc<[String]>> {
        let state = self.lock();
        match listing {
            Listing::Resources => state.resources.clone(),
            Listing::Templates => state.templates.clone(),
            Listing::Prompts => state.prompts.clone(),
        }
    }

    /// Drops what a change notification makes stale.
    pub fn on_notification(&self, method: &str) {
        let resources = match method {
            "notifications/resources/list_changed" => true,
            "notifications/prompts/list_changed" => false,
            _ => return,
        };
        let mut state = self.lock();
        if resources {
            state.resources = None;
            state.templates = None;
        } else {
            state.prompts = None;
        }
        state.epoch += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uris(list: &[&str]) -> std::vec::IntoIter<String> {
        list.iter()
            .map(|u| (*u).to_owned())
            .collect::<Vec<_>>()
            .into_iter()
    }

    #[test]
    fn a_listing_is_kept_until_the_server_says_it_changed() {
        let listed = Listed::default();
        assert!(
            listed.get(Listing::Resources).is_none(),
            "nothing listed yet"
        );
        listed.keep(
            Listing::Resources,
            listed.epoch(),
            uris(&["a://1", "a://2"]),
        );
        listed.keep(Listing::Templates, listed.epoch(), uris(&["a://{x}"]));
        listed.keep(Listing::Prompts, listed.epoch(), uris(&["review"]));
        assert_eq!(
            listed.get(Listing::Resources).as_deref(),
            Some(&["a://1".to_owned(), "a://2".to_owned()][..])
        );
        listed.on_notification("notifications/tools/list_changed");
        assert!(
            listed.get(Listing::Templates).is_some(),
            "not about resources"
        );
        listed.on_notification("notifications/resources/list_changed");
        assert!(listed.get(Listing::Resources).is_none());
        assert!(listed.get(Listing::Templates).is_none());
        assert!(
            listed.get(Listing::Prompts).is_some(),
            "prompts did not change"
        );
        listed.on_notification("notifications/prompts/list_changed");
        assert!(listed.get(Listing::Prompts).is_none());
    }

    #[test]
    fn a_listing_overtaken_by_a_change_notice_is_not_kept() {
        let listed = Listed::default();
        let began = listed.epoch();
        listed.on_notification("notifications/resources/list_changed");
        listed.keep(Listing::Resources, began, uris(&["a://old"]));
        assert!(listed.get(Listing::Resources).is_none());
        listed.keep(Listing::Resources, listed.epoch(), uris(&["a://new"]));
        assert!(listed.get(Listing::Resources).is_some());
    }

    #[test]
    fn a_listing_of_too_many_to_keep_is_not_kept() {
        let listed = Listed::default();
        let many = (0..=MAX_KEPT_ENTRIES)
            .map(|i| format!("a://{i}"))
            .collect::<Vec<_>>();
        listed.keep(Listing::Resources, listed.epoch(), many.into_iter());
        assert!(listed.get(Listing::Resources).is_none());
    }

    #[test]
    fn a_listing_too_large_to_keep_is_not_kept() {
        let listed = Listed::default();
        let long = format!("a://{}", "x".repeat(MAX_KEPT_BYTES / 2));
        listed.keep(
            Listing::Prompts,
            listed.epoch(),
            uris(&[&long, &long, &long]),
        );
        assert!(listed.get(Listing::Prompts).is_none());
        listed.keep(Listing::Prompts, listed.epoch(), uris(&[&long]));
        assert!(listed.get(Listing::Prompts).is_some());
    }
}
