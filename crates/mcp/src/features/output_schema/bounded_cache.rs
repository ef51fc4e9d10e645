//! A small map bounded in entries and in total weight (bytes of what each entry stands for);
//! past either bound the least recently used entries go first. Lookups take a lock; eviction
//! scans the entries, which the bounds keep few.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Mutex, MutexGuard, PoisonError};

struct Entry<V> {
    value: V,
    weight: usize,
    last_used: u64,
}

struct Entries<K, V> {
    map: HashMap<K, Entry<V>>,
    clock: u64,
    weight: usize,
}

pub(super) struct BoundedCache<K, V> {
    max_entries: usize,
    max_weight: usize,
    entries: Mutex<Entries<K, V>>,
}

impl<K: Eq + Hash + Clone, V: Clone> BoundedCache<K, V> {
    pub(super) fn new(max_entries: usize, max_weight: usize) -> Self {
        let entries = Entries {
            map: HashMap::new(),
            clock: 0,
            weight: 0,
        };
        Self {
            max_entries,
            max_weight,
            entries: Mutex::new(entries),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Entries<K, V>> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The value under `key`, now the most recently used.
    pub(super) fn get(&self, key: &K) -> Option<V> {
        let mut entries = self.lock();
        entries.clock += 1;
        let now = entries.clock;
        let entry = entries.map.get_mut(key)?;
        entry.last_used = now;
        Some(entry.value.clone())
    }

    /// Keeps `value` under `key`, then evicts until both bounds hold.
    pub(super) fn insert(&self, key: K, value: V, weight: usize) {
        let mut entries = self.lock();
        entries.clock += 1;
        let last_used = entries.clock;
        entries.weight += weight;
        let entry = Entry {
            value,
            weight,
            last_used,
        };
        if let Some(replaced) = entries.map.insert(key, entry) {
            entries.weight -= replaced.weight;
        }
        while entries.map.len() > self.max_entries || entries.weight > self.max_weight {
            let oldest = entries
                .map
                .iter()
                .min_by_key(|(_, entry)| entry.last_used)
                .map(|(key, _)| key.clone());
            let Some(evicted) = oldest.and_then(|key| entries.map.remove(&key)) else {
                break;
            };
            entries.weight -= evicted.weight;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_recently_used_entry_goes_first_past_either_bound() {
        let cache = BoundedCache::new(2, 10);
        cache.insert("a", 1, 1);
        cache.insert("b", 2, 1);
        assert_eq!(
            cache.get(&"a"),
            Some(1),
            "touching `a` makes `b` the oldest"
        );
        cache.insert("c", 3, 1);
        assert_eq!(cache.get(&"b"), None, "a third entry evicts the oldest");
        assert_eq!((cache.get(&"a"), cache.get(&"c")), (Some(1), Some(3)));
        cache.insert("heavy", 4, 10);
        assert_eq!(
            (cache.get(&"a"), cache.get(&"c"), cache.get(&"heavy")),
            (None, None, Some(4)),
            "weight past the bound evicts as well, so a few huge entries cannot pile up"
        );
    }
}
