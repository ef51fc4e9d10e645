//! Reaching a configured server: a stored configuration made a live client ([`connect`]), a
//! short-lived connection for one CLI command ([`connection`]), every change of a connection's
//! state on record ([`connection_trail`]), the OAuth side of an HTTP connection
//! ([`oauth_connection`], with the grants without a person in [`grant_sources`]), signing in
//! ([`sign_in`], through the person's browser with [`loopback_prompt`]), and what the host
//! answers when a server asks something of it ([`server_requests`]), and watching a server's
//! change notifications on either kind of connection ([`watching`]).

pub mod connect;
pub(crate) mod connection;
pub(crate) mod connection_trail;
pub(crate) mod grant_sources;
pub mod loopback_prompt;
pub(crate) mod oauth_connection;
pub mod server_requests;
pub mod sign_in;
pub mod watching;
