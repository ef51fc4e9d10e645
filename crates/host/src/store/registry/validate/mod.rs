//! Validation and normalisation of server configurations ([`validate`]): the whole config
//! ([`server`]), a stdio server's command and environment ([`stdio`]), an HTTP server's headers
//! ([`headers`]) and OAuth client settings ([`oauth`]).

mod headers;
mod invalid;
mod oauth;
mod server;
mod stdio;
#[cfg(test)]
mod tests;

pub use server::validate;
