//! An in-memory [`SecretStore`] for the gated runs, so the benchmark needs no OS keyring. The
//! echo server has no secret values, so nothing is ever stored in it; it exists so that the
//! host never reaches for the OS keyring.

use std::sync::{Mutex, PoisonError};

use gatehouse_host::Result;
use gatehouse_host::secrets::{SecretKey, SecretStore};
use gatehouse_mcp::Sensitive;
use gatehouse_mcp::transport::BoxFuture;

/// Values by key, in memory.
#[derive(Debug, Default)]
pub struct MemorySecrets {
    values: Mutex<Vec<(SecretKey, String)>>,
}

impl MemorySecrets {
    fn values(&self) -> std::sync::MutexGuard<'_, Vec<(SecretKey, String)>> {
        self.values.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl SecretStore for MemorySecrets {
    fn get<'a>(&'a self, key: &'a SecretKey) -> BoxFuture<'a, Result<Option<Sensitive<String>>>> {
        let found = self
            .values()
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| Sensitive::new(v.clone()));
        Box::pin(async move { Ok(found) })
    }

    fn set<'a>(
        &'a self,
        key: &'a SecretKey,
        _label: &'a str,
        value: &'a str,
    ) -> BoxFuture<'a, Result<()>> {
        let mut values = self.values();
        values.retain(|(k, _)| k != key);
        values.push((key.clone(), value.to_owned()));
        Box::pin(async { Ok(()) })
    }

    fn delete<'a>(&'a self, key: &'a SecretKey) -> BoxFuture<'a, Result<()>> {
        self.values().retain(|(k, _)| k != key);
        Box::pin(async { Ok(()) })
    }
}
