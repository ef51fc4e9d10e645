//! The engine's one owner and its local door: the lock that makes one engine per data directory
//! ([`lock`]), the control socket's protocol ([`protocol`], [`framing`]), the listener and each
//! connection ([`listener`], [`peer`], [`face`]; on Windows a named pipe, [`pipe`]), what a
//! request does ([`dispatch`], [`answers`]), the running [`engine`], the client a face uses
//! ([`client`]) and the one an agent's gateway connection uses ([`tunnel`]). It sits above
//! `host`: it uses [`crate::Host`], nothing below imports it.

pub mod answers;
pub mod client;
mod dispatch;
pub mod engine;
mod face;
pub mod framing;
mod gateway_face;
pub mod handoff;
mod listener;
pub mod lock;
mod outbox;
pub mod peer;
pub mod pipe;
pub mod protocol;
mod shared;
#[cfg(unix)]
pub mod socket_halves;
pub mod tunnel;
