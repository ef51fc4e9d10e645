//! Where secret values are kept: the [`SecretStore`] interface the engine uses, so it does
//! not depend on one keyring implementation.

use gatehouse_mcp::Sensitive;
use gatehouse_mcp::transport::BoxFuture;

use super::entry::SecretKey;
use crate::error::Result;

/// Where secret values are kept.
pub trait SecretStore: Send + Sync + std::fmt::Debug + 'static {
    /// The value, or `None` if the keyring has none.
    fn get<'a>(&'a self, key: &'a SecretKey) -> BoxFuture<'a, Result<Option<Sensitive<String>>>>;
    /// Stores or replaces a value; `label` is what keyring tools show.
    fn set<'a>(
        &'a self,
        key: &'a SecretKey,
        label: &'a str,
        value: &'a str,
    ) -> BoxFuture<'a, Result<()>>;
    /// Deletes one value; a missing one is fine.
    fn delete<'a>(&'a self, key: &'a SecretKey) -> BoxFuture<'a, Result<()>>;
}
