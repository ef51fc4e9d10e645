//! What Gatehouse keeps: where its data lives ([`paths`]), the SQLite store ([`storage`], its
//! files the person's alone through [`private_files`]), the server [`registry`], and the secret
//! values in the OS keyring ([`secrets`]).

pub mod paths;
pub(crate) mod private_files;
pub mod registry;
pub mod secrets;
pub mod storage;
