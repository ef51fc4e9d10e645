//! The servers' configurations kept in memory while the engine follows the store's changes
//! (`sessions::follow`), so that the gateway's routing of each agent's call reads no SQLite
//! (`Registry::list_kept`; a name it does not find there is looked for afresh).
//! It is on only in an engine with that follower: a write through this registry forgets it at
//! once, and a change another process makes (the CLI) moves the store's change counter, which
//! the follower reads every 500 ms and forgets it then, the same bound within which the live
//! sessions follow such a change. A list read while a write lands is not kept (the generation
//! moved), so a stale list is never put back.

use std::sync::{Arc, Mutex, PoisonError};

use super::model::ServerConfig;

#[derive(Debug, Default)]
struct State {
    on: bool,
    list: Option<Arc<Vec<ServerConfig>>>,
    generation: u64,
}

/// The cached list, if any, and the generation a fresh read must match to be kept.
#[derive(Debug, Default)]
pub(crate) struct ListCache {
    state: Mutex<State>,
}

impl ListCache {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Starts or stops keeping the list (stopping forgets it).
    pub(crate) fn keep(&self, on: bool) {
        let mut state = self.state();
        state.on = on;
        state.list = None;
        state.generation += 1;
    }

    /// Whether the list is kept (an engine following the store's changes).
    pub(crate) fn is_on(&self) -> bool {
        self.state().on
    }

    /// The list kept, else the generation a read starting now must match to be kept.
    pub(crate) fn get(&self) -> Result<Arc<Vec<ServerConfig>>, u64> {
        let state = self.state();
        match &state.list {
            Some(list) if state.on => Ok(list.clone()),
            _ => Err(state.generation),
        }
    }

    /// Keeps `list`, read since `generation`, unless something changed meanwhile.
    pub(crate) fn put(&self, generation: u64, list: &Arc<Vec<ServerConfig>>) {
        let mut state = self.state();
        if state.on && state.generation == generation {
            state.list = Some(list.clone());
        }
    }

    /// Forgets the list: the servers changed.
    pub(crate) fn forget(&self) {
        let mut state = self.state();
        state.list = None;
        state.generation += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_is_kept_only_when_on_and_nothing_changed_while_it_was_read() {
        let cache = ListCache::default();
        let generation = cache.get().expect_err("nothing kept");
        cache.put(generation, &Arc::default());
        assert!(cache.get().is_err(), "off: nothing is kept");

        cache.keep(true);
        let generation = cache.get().expect_err("nothing kept yet");
        cache.forget();
        cache.put(generation, &Arc::default());
        assert!(
            cache.get().is_err(),
            "a write landed while the list was read: the read is not kept"
        );
        let generation = cache.get().expect_err("still nothing");
        cache.put(generation, &Arc::default());
        assert!(cache.get().is_ok(), "kept");
        cache.forget();
        assert!(cache.get().is_err(), "a change forgets it");
        let generation = cache.get().expect_err("nothing");
        cache.put(generation, &Arc::default());
        cache.keep(false);
        assert!(cache.get().is_err(), "stopping forgets it");
    }
}
