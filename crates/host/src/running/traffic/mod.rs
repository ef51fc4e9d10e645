//! Every JSON-RPC message in and out of each server's connection, kept for the app's Traffic
//! tab: time, direction, method (a response carries its request's), id, latency for responses,
//! size, and the message itself, redacted of secrets before it is kept ([`redacted`]: values
//! under keys that name a secret and the server's known secret values, the audit log's rules).
//!
//! - [`recorder`]: the tap on a connection's peer (`ClientOptions::tap`) that classifies and
//!   keeps each message.
//! - [`ring`]: per server at most 2,000 messages and 8 MiB, the oldest dropped and counted; a
//!   message's text is cut at [`MAX_MESSAGE_BYTES`] (marked `truncated`).
//! - [`entry`]: what the window reads; [`buffers`]: every server's ring, and which have news.
//!
//! Readers ask for a server's messages after a sequence number ([`Traffic::after`]); a
//! follower waits for the set of servers with new messages ([`Traffic::changed`]), so nothing
//! is queued per message beyond the rings.

mod buffers;
pub mod entry;
pub mod recorder;
mod redacted;
pub mod ring;

pub use buffers::{MAX_MESSAGE_BYTES, Traffic};
pub use entry::{TrafficDirection, TrafficEntry, TrafficPage};
