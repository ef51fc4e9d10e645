//! Which OS notification each waiting request gets, as plain bookkeeping on a clock the caller
//! gives: requests from the same asker for the same tool share one notification (its text
//! updated with the count), new notifications are rate-limited (at most [`BURST`] per
//! [`BURST_WINDOW`]), and past that, or past [`MAX_GROUPS`] live notifications, requests are
//! folded into one "more requests wait" notification. An answered or withdrawn request leaves
//! its group; an empty group's notification is closed. `approval_notice` does the OS side.

use std::collections::{BTreeMap, VecDeque};
use std::time::{Duration, Instant};

/// New notifications allowed within [`BURST_WINDOW`].
pub const BURST: usize = 3;
pub const BURST_WINDOW: Duration = Duration::from_secs(10);
/// Live notifications at most (each has a thread waiting for its action); the overflow
/// notification comes on top.
pub const MAX_GROUPS: usize = 8;

/// Who asks for what: requests with the same key share a notification.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum GroupKey {
    Ask {
        who: String,
        what: String,
    },
    /// Everything past the rate limit or the cap on live notifications.
    Overflow,
}

/// What the OS side should do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoticeStep {
    /// Show a new notification for the group (then report its id with [`NoticeBook::shown`]).
    Show { key: GroupKey, waiting: usize },
    /// Replace the text of the group's notification `notice` (same id: no new popup).
    Update {
        key: GroupKey,
        notice: u32,
        waiting: usize,
    },
    /// Close notification `notice`: nothing in it waits any more.
    Close { notice: u32 },
    /// Nothing to do (the request is counted in the tray; its group is being shown).
    Nothing,
}

#[derive(Debug, Default)]
struct Group {
    notice: Option<u32>,
    /// The waiting requests, oldest first.
    requests: Vec<String>,
}

/// The bookkeeping.
#[derive(Debug, Default)]
pub struct NoticeBook {
    groups: BTreeMap<GroupKey, Group>,
    /// When each recent new notification was shown.
    shown_at: VecDeque<Instant>,
}

impl NoticeBook {
    /// Request `id` now waits; `key` is who asks for what.
    pub fn asked(&mut self, key: GroupKey, id: &str, now: Instant) -> NoticeStep {
        if let Some(group) = self.groups.get_mut(&key)
            && group.notice.is_some()
        {
            return push(&key, group, id);
        }
        let live = self
            .groups
            .iter()
            .filter(|(k, g)| **k != GroupKey::Overflow && g.notice.is_some())
            .count();
        // Requests held back earlier are announced first: with them waiting unshown, a new one
        // joins them.
        let held_back = self
            .groups
            .get(&GroupKey::Overflow)
            .is_some_and(|g| g.notice.is_none() && !g.requests.is_empty());
        let key = if self.may_show(now) && live < MAX_GROUPS && !held_back {
            key
        } else {
            GroupKey::Overflow
        };
        let group = self.groups.entry(key.clone()).or_default();
        if group.notice.is_some() {
            return push(&key, group, id);
        }
        group.requests.push(id.to_owned());
        if key == GroupKey::Overflow && !self.may_show(now) {
            // Counted in the tray; shown when the next request finds the limit lifted.
            return NoticeStep::Nothing;
        }
        self.shown_at.push_back(now);
        let waiting = self.groups.get(&key).map_or(1, |g| g.requests.len());
        NoticeStep::Show { key, waiting }
    }

    /// The OS showed the group's notification as `notice`.
    pub fn shown(&mut self, key: &GroupKey, notice: u32) {
        if let Some(group) = self.groups.get_mut(key) {
            group.notice = Some(notice);
        }
    }

    /// Request `id` was answered or withdrawn.
    pub fn gone(&mut self, id: &str) -> NoticeStep {
        let Some((key, group)) = self
            .groups
            .iter_mut()
            .find(|(_, g)| g.requests.iter().any(|r| r == id))
        else {
            return NoticeStep::Nothing;
        };
        group.requests.retain(|r| r != id);
        let key = key.clone();
        let step = match (group.notice, group.requests.len()) {
            (Some(notice), 0) => NoticeStep::Close { notice },
            (Some(notice), waiting) => NoticeStep::Update {
                key: key.clone(),
                notice,
                waiting,
            },
            (None, _) => NoticeStep::Nothing,
        };
        if group.requests.is_empty() {
            self.groups.remove(&key);
        }
        step
    }

    /// Notification `notice` was closed by the person or the OS: its group shows again on its
    /// next request.
    pub fn closed(&mut self, notice: u32) {
        self.groups.retain(|_, g| {
            if g.notice == Some(notice) {
                g.notice = None;
            }
            !g.requests.is_empty()
        });
    }

    /// The one request a group's notification stands for, if it stands for exactly one (its
    /// Allow once and Deny answer that one; with more, they open the window).
    pub fn single_request(&self, notice: u32) -> Option<String> {
        self.groups
            .iter()
            .find(|(k, g)| **k != GroupKey::Overflow && g.notice == Some(notice))
            .and_then(|(_, g)| match g.requests.as_slice() {
                [only] => Some(only.clone()),
                _ => None,
            })
    }

    /// Every request in a group.
    pub fn ids(&self) -> Vec<String> {
        self.groups
            .values()
            .flat_map(|g| g.requests.iter().cloned())
            .collect()
    }

    /// Whether request `id` is in a group.
    pub fn holds(&self, id: &str) -> bool {
        self.groups
            .values()
            .any(|g| g.requests.iter().any(|r| r == id))
    }

    /// The requests of a group, oldest first.
    pub fn requests_of(&self, key: &GroupKey) -> &[String] {
        self.groups.get(key).map_or(&[], |g| g.requests.as_slice())
    }

    fn may_show(&mut self, now: Instant) -> bool {
        while self
            .shown_at
            .front()
            .is_some_and(|t| now.saturating_duration_since(*t) >= BURST_WINDOW)
        {
            self.shown_at.pop_front();
        }
        self.shown_at.len() < BURST
    }
}

fn push(key: &GroupKey, group: &mut Group, id: &str) -> NoticeStep {
    group.requests.push(id.to_owned());
    match group.notice {
        Some(notice) => NoticeStep::Update {
            key: key.clone(),
            notice,
            waiting: group.requests.len(),
        },
        None => NoticeStep::Nothing,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(who: &str, what: &str) -> GroupKey {
        GroupKey::Ask {
            who: who.into(),
            what: what.into(),
        }
    }

    #[test]
    fn the_same_asker_and_tool_share_one_notification() {
        let mut book = NoticeBook::default();
        let t = Instant::now();
        let key = ask("claude-code", "write_file");
        assert_eq!(
            book.asked(key.clone(), "a1", t),
            NoticeStep::Show {
                key: key.clone(),
                waiting: 1
            }
        );
        book.shown(&key, 41);
        assert_eq!(book.single_request(41).as_deref(), Some("a1"));
        assert_eq!(
            book.asked(key.clone(), "a2", t),
            NoticeStep::Update {
                key: key.clone(),
                notice: 41,
                waiting: 2
            }
        );
        assert_eq!(
            book.single_request(41),
            None,
            "two requests: the window decides"
        );
        assert_eq!(
            book.gone("a1"),
            NoticeStep::Update {
                key,
                notice: 41,
                waiting: 1
            }
        );
        assert_eq!(book.gone("a2"), NoticeStep::Close { notice: 41 });
        assert_eq!(book.gone("a2"), NoticeStep::Nothing, "already gone");
    }

    #[test]
    fn a_burst_is_folded_into_one_overflow_notification() {
        let mut book = NoticeBook::default();
        let t = Instant::now();
        for n in 0..BURST {
            let key = ask("agent", &format!("tool{n}"));
            assert!(matches!(
                book.asked(key.clone(), &format!("a{n}"), t),
                NoticeStep::Show { .. }
            ));
            book.shown(&key, n as u32);
        }
        // The limit is reached: the next one is counted, not shown.
        assert_eq!(book.asked(ask("agent", "x"), "b1", t), NoticeStep::Nothing);
        // Once the window has passed, the next request shows the overflow group, with the one
        // held back.
        let later = t + BURST_WINDOW;
        assert_eq!(
            book.asked(ask("agent", "y"), "b2", later),
            NoticeStep::Show {
                key: GroupKey::Overflow,
                waiting: 2
            },
        );
        book.shown(&GroupKey::Overflow, 99);
        // With nothing held back, a new asker and tool gets its own notification again.
        assert_eq!(
            book.gone("b1"),
            NoticeStep::Update {
                key: GroupKey::Overflow,
                notice: 99,
                waiting: 1
            }
        );
        assert_eq!(book.gone("b2"), NoticeStep::Close { notice: 99 });
        let key = ask("agent", "z");
        assert_eq!(
            book.asked(key.clone(), "c1", later + BURST_WINDOW),
            NoticeStep::Show { key, waiting: 1 }
        );
    }

    #[test]
    fn overflow_collects_what_the_limit_holds_back() {
        let mut book = NoticeBook::default();
        let t = Instant::now();
        for n in 0..BURST {
            let key = ask("agent", &format!("tool{n}"));
            book.asked(key.clone(), &format!("a{n}"), t);
            book.shown(&key, n as u32);
        }
        assert_eq!(book.asked(ask("agent", "x"), "b1", t), NoticeStep::Nothing);
        assert_eq!(book.asked(ask("agent", "z"), "b2", t), NoticeStep::Nothing);
        // The overflow group holds both; answering them empties it without a notification.
        assert_eq!(book.gone("b1"), NoticeStep::Nothing);
        assert_eq!(book.gone("b2"), NoticeStep::Nothing);
    }

    #[test]
    fn live_notifications_are_capped() {
        let mut book = NoticeBook::default();
        let mut t = Instant::now();
        for n in 0..MAX_GROUPS {
            t += BURST_WINDOW;
            let key = ask("agent", &format!("tool{n}"));
            assert!(matches!(
                book.asked(key.clone(), &format!("a{n}"), t),
                NoticeStep::Show { .. }
            ));
            book.shown(&key, n as u32);
        }
        t += BURST_WINDOW;
        assert_eq!(
            book.asked(ask("agent", "one-more"), "c", t),
            NoticeStep::Show {
                key: GroupKey::Overflow,
                waiting: 1
            }
        );
    }

    #[test]
    fn a_closed_notification_shows_again_on_the_next_request() {
        let mut book = NoticeBook::default();
        let t = Instant::now();
        let key = ask("agent", "tool");
        book.asked(key.clone(), "a1", t);
        book.shown(&key, 7);
        book.closed(7);
        assert_eq!(book.single_request(7), None);
        assert!(matches!(
            book.asked(key, "a2", t + BURST_WINDOW),
            NoticeStep::Show { waiting: 2, .. }
        ));
    }
}
