//! Live sessions: one connection task per enabled server, its status and its tool list. The live
//! state follows the registry through [`Sessions::follow_registry`], which is serialised (one at a
//! time, and never in the middle of a change this host makes): two overlapping syncs cannot restart
//! a server twice. Changes made by another process (the CLI) are picked up by
//! [`follow::StoreFollower`], which watches the store's change counter; listing servers has no side
//! effects.
//!
//! The tool list follows the server: a legacy server pushes `notifications/tools/list_changed`;
//! with a modern one the session keeps a `subscriptions/listen` stream open (reopened with
//! backoff, the list fetched again after each reopening) and honours the list's `ttlMs`: a
//! stale list is still shown while it is fetched again (2026-07-28 server/utilities/caching).
//! However often a server says its tools changed, they are listed at most once per interval
//! ([`relist_pace`]). While a session runs, its roots are watched ([`root_watch`]).
//!
//! Sessions sit above the server's process life ([`crate::running`]), its connection
//! ([`crate::connections`]) and the gate ([`crate::oversight`]); only [`crate::host`] is above.
//!
//! The serial guard is a tokio mutex that an edit made by this host also holds from writing the
//! registry to applying it. A session stopped by hand is `Stopped`, and stays so across syncs;
//! shutting down stops every session in parallel, each bounded by its two stop waits and
//! `STOP_SLACK`. A tool list fetched again unchanged announces nothing.

pub(crate) mod follow;
pub(crate) mod health;
mod live;
mod publish;
pub(crate) mod relist_pace;
pub(crate) mod restarts;
pub(crate) mod root_watch;
mod runner;
mod serving;
mod slots;
pub(crate) mod status;
mod task_follow;

pub(crate) use follow::StoreFollower;
pub(crate) use live::Serial;
pub use live::Sessions;
pub(crate) use slots::LiveClient;
