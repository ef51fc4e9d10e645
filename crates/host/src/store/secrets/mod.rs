//! Secret values (secret environment variables and HTTP headers of servers, OAuth tokens and
//! client credentials, the audit chain's key) live only in the OS keyring; SQLite keeps just a
//! marker that a value exists. The store is a small trait so the engine does not depend on one keyring
//! implementation; the real one, [`KeyringStore`], is the system's own keyring reached through
//! the `keyring-core` crate family, and never caches a value. Values come back as
//! [`Sensitive`], so printing one shows `<redacted>`.

mod entry;
mod keyring;
#[cfg(any(target_os = "linux", target_os = "freebsd", target_os = "openbsd"))]
mod legacy;
pub mod oauth;
mod store;
mod token_store;
pub(crate) mod tokens_seen;

pub use entry::{SecretKey, SecretKind};
pub use keyring::KeyringStore;
pub use store::SecretStore;
pub use token_store::KeyringTokenStore;
