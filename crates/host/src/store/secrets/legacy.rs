//! Secret Service items written by Gatehouse before it used the keyring crates: found by the
//! attributes `application=gatehouse`, `gatehouse-server`, `gatehouse-kind` (`env`, `header`)
//! and `gatehouse-name`, in any collection. Reading a value that exists only as such an item
//! moves it to the current entry (service `gatehouse`, user [`SecretKey::account`]) and deletes
//! the old item, so a user's existing secrets keep working. Only the Secret Service had them.
//!
//! Linux only. Such items are also deleted with their server.

use std::collections::HashMap;

use keyring_core::{CredentialStore, Entry, Error};

use super::entry::{SecretKey, text};

/// The attributes the old code gave the item of `key`; `None` for kinds it never stored.
fn attributes(key: &SecretKey) -> Option<HashMap<&str, &str>> {
    match key {
        SecretKey::Value {
            server_id,
            kind,
            name,
        } => Some(HashMap::from([
            ("application", "gatehouse"),
            ("gatehouse-server", server_id.as_str()),
            ("gatehouse-kind", kind.as_str()),
            ("gatehouse-name", name.as_str()),
        ])),
        SecretKey::OAuthTokens { .. }
        | SecretKey::OAuthClient { .. }
        | SecretKey::IdpSession { .. }
        | SecretKey::AuditKey { .. }
        | SecretKey::AuditHead { .. }
        | SecretKey::BackupKey { .. }
        | SecretKey::ClientToken { .. } => None,
    }
}

/// The old items of `key`.
fn find(store: &CredentialStore, key: &SecretKey) -> keyring_core::Result<Vec<Entry>> {
    match attributes(key) {
        Some(attributes) => store.search(&attributes),
        None => Ok(Vec::new()),
    }
}

/// The value of `key`'s old item, if it has one, written to the entry `current` makes (labelled
/// as the old item was) before the old item is deleted.
pub(super) fn migrate(
    store: &CredentialStore,
    key: &SecretKey,
    current: impl FnOnce(&str) -> keyring_core::Result<Entry>,
) -> keyring_core::Result<Option<String>> {
    let old = find(store, key)?;
    let Some(first) = old.first() else {
        return Ok(None);
    };
    let value = first.get_secret().and_then(text)?;
    let label = old_label(first);
    match current(&label).and_then(|entry| entry.set_secret(value.as_bytes())) {
        Ok(()) => {
            for item in &old {
                if let Err(e) = item.delete_credential() {
                    tracing::warn!("cannot delete an old keyring item of Gatehouse: {e}");
                }
            }
        }
        // The old item still serves; moving it can wait for the next read.
        Err(e) => tracing::warn!("cannot move a keyring item of Gatehouse to its new entry: {e}"),
    }
    Ok(Some(value))
}

/// The label the old item had, for the new one.
fn old_label(item: &Entry) -> String {
    item.as_any()
        .downcast_ref::<zbus_secret_service_keyring_store::cred::Wrapper>()
        .and_then(|wrapper| wrapper.get_label().ok())
        .unwrap_or_default()
}

/// Deletes `key`'s old items; none is fine.
pub(super) fn delete(store: &CredentialStore, key: &SecretKey) -> keyring_core::Result<()> {
    for item in find(store, key)? {
        match item.delete_credential() {
            Ok(()) | Err(Error::NoEntry) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}
