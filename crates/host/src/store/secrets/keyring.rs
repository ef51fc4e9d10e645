//! [`KeyringStore`]: the system's own keyring through `keyring-core`, with one store per system:
//! the freedesktop Secret Service over zbus on Linux (gnome-keyring, KWallet, KeePassXC), the
//! Keychain on macOS, Credential Manager on Windows. Every entry is under the service
//! [`SERVICE`] with the key's [`SecretKey::account`] as its user.
//!
//! The stores are synchronous (the Secret Service one blocks on its own small runtime), so each
//! operation runs on tokio's blocking pool, never on an async worker. A store is opened per
//! operation, as the keyring may be started or unlocked while Gatehouse runs. An unreachable
//! keyring (no D-Bus session, no Secret Service, a locked collection) is
//! [`HostError::KeyringUnavailable`] (`keyring_unavailable`), whose message names the fix;
//! nothing is ever written anywhere else, so the secret is stored nowhere and the server is
//! not added.

use std::collections::HashMap;
use std::sync::Arc;

use gatehouse_mcp::Sensitive;
use gatehouse_mcp::transport::BoxFuture;
use keyring_core::{CredentialStore, Entry, Error};

use super::entry::{SecretKey, text};
use super::store::SecretStore;
use crate::error::{HostError, Result};

/// The keyring service name of every Gatehouse entry.
pub const SERVICE: &str = "gatehouse";

/// The OS keyring.
#[derive(Debug, Default)]
pub struct KeyringStore;

/// Opens this system's credential store.
fn open_store() -> keyring_core::Result<Arc<CredentialStore>> {
    #[cfg(any(target_os = "linux", target_os = "freebsd", target_os = "openbsd"))]
    let store: Arc<CredentialStore> = zbus_secret_service_keyring_store::Store::new()?;
    #[cfg(target_os = "macos")]
    let store: Arc<CredentialStore> = apple_native_keyring_store::keychain::Store::new()?;
    #[cfg(target_os = "windows")]
    let store: Arc<CredentialStore> = windows_native_keyring_store::Store::new()?;
    #[cfg(not(any(
        target_os = "linux",
        target_os = "freebsd",
        target_os = "openbsd",
        target_os = "macos",
        target_os = "windows"
    )))]
    let store: Arc<CredentialStore> = {
        return Err(Error::NotSupportedByStore(
            "Gatehouse has no keyring store for this operating system".into(),
        ));
    };
    Ok(store)
}

/// The entry for `key`, labelled `label` where the store shows labels.
fn entry(
    store: &CredentialStore,
    key: &SecretKey,
    label: Option<&str>,
) -> keyring_core::Result<Entry> {
    let account = key.account();
    #[cfg(any(target_os = "linux", target_os = "freebsd", target_os = "openbsd"))]
    if let Some(label) = label.filter(|l| !l.is_empty()) {
        let modifiers = HashMap::from([("label", label)]);
        return store.build(SERVICE, &account, Some(&modifiers));
    }
    let _ = label;
    store.build(SERVICE, &account, None::<&HashMap<&str, &str>>)
}

/// A keyring error as the engine's: no access (locked, no provider) is `KeyringUnavailable`.
fn host_error(action: &str, error: Error) -> HostError {
    match error {
        Error::NoStorageAccess(_) | Error::NoDefaultStore | Error::NotSupportedByStore(_) => {
            unavailable(action, error)
        }
        other => HostError::Secrets(format!("cannot {action} in the OS keyring: {other}")),
    }
}

fn unavailable(action: &str, error: Error) -> HostError {
    HostError::KeyringUnavailable {
        action: action.to_owned(),
        detail: error.to_string(),
    }
}

/// Runs `op` on the blocking pool with a freshly opened store; failing to open one (no D-Bus
/// session, no Secret Service on it) is `KeyringUnavailable`.
async fn with_store<T: Send + 'static>(
    action: String,
    op: impl FnOnce(&CredentialStore) -> std::result::Result<T, Error> + Send + 'static,
) -> Result<T> {
    tokio::task::spawn_blocking(move || {
        let store = open_store().map_err(|e| unavailable(&action, e))?;
        op(store.as_ref()).map_err(|e| host_error(&action, e))
    })
    .await
    .map_err(|e| HostError::Secrets(format!("the keyring operation did not finish: {e}")))?
}

/// What to say a failed operation was doing, naming the entry but never its value.
fn action(verb: &str, key: &SecretKey) -> String {
    match key {
        SecretKey::Value { name, .. } => format!("{verb} the secret `{name}`"),
        SecretKey::OAuthTokens { .. } => format!("{verb} the server's OAuth tokens"),
        SecretKey::OAuthClient { issuer } => {
            format!("{verb} the OAuth client credentials for {issuer}")
        }
        SecretKey::IdpSession { issuer, .. } => {
            format!("{verb} the sign-in at identity provider {issuer}")
        }
        SecretKey::AuditKey { .. } => format!("{verb} the audit log's key"),
        SecretKey::AuditHead { .. } => format!("{verb} the audit log's head checkpoint"),
        SecretKey::BackupKey { .. } => format!("{verb} the key of the agents' config backups"),
        SecretKey::ClientToken { client, .. } => {
            format!("{verb} the gateway token of client `{client}`")
        }
    }
}

/// The value of an entry; several for one key (left by another tool) give the first.
fn read(entry: &Entry) -> keyring_core::Result<Option<String>> {
    match entry.get_secret() {
        Ok(bytes) => text(bytes).map(Some),
        Err(Error::NoEntry) => Ok(None),
        Err(Error::Ambiguous(entries)) => match entries.first() {
            Some(first) => first.get_secret().and_then(text).map(Some),
            None => Ok(None),
        },
        Err(e) => Err(e),
    }
}

/// Deletes an entry, and every duplicate of it; a missing one is fine.
fn remove(entry: &Entry) -> keyring_core::Result<()> {
    match entry.delete_credential() {
        Ok(()) | Err(Error::NoEntry) => Ok(()),
        Err(Error::Ambiguous(entries)) => entries.iter().try_for_each(remove),
        Err(e) => Err(e),
    }
}

impl SecretStore for KeyringStore {
    fn get<'a>(&'a self, key: &'a SecretKey) -> BoxFuture<'a, Result<Option<Sensitive<String>>>> {
        let key = key.clone();
        Box::pin(async move {
            let value = with_store(action("read", &key), move |store| {
                if let Some(value) = read(&entry(store, &key, None)?)? {
                    return Ok(Some(value));
                }
                #[cfg(any(target_os = "linux", target_os = "freebsd", target_os = "openbsd"))]
                if let Some(value) =
                    super::legacy::migrate(store, &key, |label| entry(store, &key, Some(label)))?
                {
                    return Ok(Some(value));
                }
                Ok(None)
            })
            .await?;
            Ok(value.map(Sensitive::new))
        })
    }

    fn set<'a>(
        &'a self,
        key: &'a SecretKey,
        label: &'a str,
        value: &'a str,
    ) -> BoxFuture<'a, Result<()>> {
        let key = key.clone();
        let label = label.to_owned();
        let value = Sensitive::new(value.to_owned());
        Box::pin(async move {
            with_store(action("store", &key), move |store| {
                let entry = entry(store, &key, Some(&label))?;
                match entry.set_secret(value.expose().as_bytes()) {
                    Err(Error::Ambiguous(duplicates)) => {
                        duplicates.iter().try_for_each(remove)?;
                        entry.set_secret(value.expose().as_bytes())
                    }
                    other => other,
                }
            })
            .await
        })
    }

    fn delete<'a>(&'a self, key: &'a SecretKey) -> BoxFuture<'a, Result<()>> {
        let key = key.clone();
        Box::pin(async move {
            with_store(action("delete", &key), move |store| {
                remove(&entry(store, &key, None)?)?;
                #[cfg(any(target_os = "linux", target_os = "freebsd", target_os = "openbsd"))]
                super::legacy::delete(store, &key)?;
                Ok(())
            })
            .await
        })
    }
}
