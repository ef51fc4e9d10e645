//! `gatehouse connect AGENT`: an agent's config rewritten so that it reaches the person's
//! servers through Gatehouse. The pure rewriting (text in, text out) is in [`json_rewrite`]
//! (jsonc-parser's syntax tree) and [`toml_rewrite`] (toml_edit), with the entry Gatehouse
//! writes in [`gateway_entry`] and the preview's [`diff`] (its secrets masked by [`masking`]); [`target`] picks the file and
//! section, [`connect`] previews and applies on a `Host` (the original kept by [`backup`],
//! the connect recorded by [`record`], the backup [`sealed`] with a key in the keyring, the agent's client and profile made), [`undo`] puts the
//! original back. Which entries were imported comes from the import's record
//! ([`crate::agent_import::record`]).
//! Nothing but `lib.rs` and the faces uses this folder.

pub mod backup;
pub mod connect;
pub mod diff;
pub mod gateway_entry;
pub mod json_rewrite;
pub mod masking;
pub mod record;
pub mod sealed;
pub mod target;
pub mod toml_rewrite;
pub mod undo;

pub use connect::{Applied, ConnectRequest, Plan, SecretLeft, apply, preview};
pub use gateway_entry::GatewayLaunch;
pub use undo::{Undone, undo};
