//! What Gatehouse keeps: where its data lives ([`paths`]), the engine's settings
//! ([`engine_settings`]), the SQLite store ([`storage`], its change counter [`change_counter`], its
//! files the person's alone through [`private_files`], a newer build's database refused untouched
//! by [`schema_version`]), the server [`registry`], and the secret
//! values in the OS keyring ([`secrets`]).

pub(crate) mod change_counter;
pub(crate) mod engine_settings;
pub(crate) mod paths;
pub(crate) mod private_files;
pub(crate) mod registry;
pub(crate) mod schema_version;
pub mod secrets;
pub(crate) mod storage;
