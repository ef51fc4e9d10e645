//! The engine's settings in force: [`apply`] (what an engine opens with, a change put in force,
//! the audit retention's pruning) and [`follow`] (a live engine's job that follows the stored
//! row and prunes daily). Stored by `store::engine_settings`; the faces reach them through
//! `Host::settings` and `Host::set_settings` (`host/settings.rs`).

pub(crate) mod apply;
pub mod follow;

pub(crate) use apply::{apply, opening_health, opening_timeout, prune};
