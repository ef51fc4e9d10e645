//! The secret parts of a server config: which entries are secret, writing their values to the
//! keyring, blanking them before the config reaches SQLite, and filling them back in to connect.
//!
//! Secret env values and headers, and an HTTP server's OAuth client secret and private key and its
//! identity provider's client secret (`OAuthClientSettings` in its spec), go to the keyring and are
//! blanked before the row reaches SQLite: secrets live only in the keyring. On edit, an empty
//! secret keeps the stored value; secrets an edit drops, and all of a removed server's, are
//! deleted. Values are read back when connecting (`connect`, right before the server is spawned),
//! as `SecretValue`s beside the still blank config, and go into the transport config as `Sensitive`
//! values; the gate also reads them (`gate::server_secrets`), only so the audit log can hide them.

use gatehouse_mcp::Sensitive;

use crate::error::{HostError, Result};
use crate::store::registry::model::{ServerConfig, ServerSpec};
use crate::store::secrets::{SecretKey, SecretKind, SecretStore};

/// One secret entry of a spec: its kind, name and value (empty when unchanged on edit).
struct Entry<'a> {
    kind: SecretKind,
    name: &'a str,
    value: &'a str,
}

fn entries(spec: &ServerSpec) -> Vec<Entry<'_>> {
    match spec {
        ServerSpec::Stdio { env, .. } => env
            .iter()
            .filter(|v| v.secret)
            .map(|v| Entry {
                kind: SecretKind::Env,
                name: &v.key,
                value: &v.value,
            })
            .collect(),
        ServerSpec::Http { headers, oauth, .. } => headers
            .iter()
            .filter(|h| h.secret)
            .map(|h| Entry {
                kind: SecretKind::Header,
                name: &h.name,
                value: &h.value,
            })
            .chain(oauth.client_secret.as_deref().map(|value| Entry {
                kind: SecretKind::OAuthClientSecret,
                name: CLIENT_SECRET,
                value,
            }))
            .chain(oauth.private_key.as_deref().map(|value| Entry {
                kind: SecretKind::OAuthClientSecret,
                name: PRIVATE_KEY,
                value,
            }))
            .chain(oauth.idp_client_secret.as_deref().map(|value| Entry {
                kind: SecretKind::OAuthClientSecret,
                name: IDP_CLIENT_SECRET,
                value,
            }))
            .collect(),
    }
}

/// The name of a pre-registered OAuth client's secret among a server's secrets.
pub const CLIENT_SECRET: &str = "client_secret";
/// The name of a pre-registered OAuth client's private key among a server's secrets.
pub const PRIVATE_KEY: &str = "private_key";
/// The name of the client secret at an enterprise identity provider among a server's secrets.
pub const IDP_CLIENT_SECRET: &str = "idp_client_secret";

fn key(server_id: &str, entry: &Entry<'_>) -> SecretKey {
    SecretKey::Value {
        server_id: server_id.to_owned(),
        kind: entry.kind,
        name: entry.name.to_owned(),
    }
}

/// Every secret needs a value, except one kept from the previous version of the config.
pub fn require_values(spec: &ServerSpec, previous: Option<&ServerSpec>) -> Result<()> {
    let kept = previous.map(entries).unwrap_or_default();
    for entry in entries(spec) {
        let was_secret = kept
            .iter()
            .any(|k| k.kind == entry.kind && k.name == entry.name);
        if entry.value.is_empty() && !was_secret {
            return Err(HostError::Validation(format!(
                "the secret `{}` needs a value",
                entry.name
            )));
        }
    }
    Ok(())
}

/// The spec as stored: secret values blanked.
pub fn redact(spec: &ServerSpec) -> ServerSpec {
    let mut spec = spec.clone();
    match &mut spec {
        ServerSpec::Stdio { env, .. } => env
            .iter_mut()
            .filter(|v| v.secret)
            .for_each(|v| v.value.clear()),
        ServerSpec::Http { headers, oauth, .. } => {
            headers
                .iter_mut()
                .filter(|h| h.secret)
                .for_each(|h| h.value.clear());
            for secret in [
                &mut oauth.client_secret,
                &mut oauth.private_key,
                &mut oauth.idp_client_secret,
            ]
            .into_iter()
            .flatten()
            {
                secret.clear();
            }
        }
    }
    spec
}

/// Writes every secret value given (non-empty) to the keyring.
pub async fn store(
    store: &dyn SecretStore,
    server_id: &str,
    server_name: &str,
    spec: &ServerSpec,
) -> Result<()> {
    for entry in entries(spec).iter().filter(|e| !e.value.is_empty()) {
        let label = format!("Gatehouse: {} for server {server_name}", entry.name);
        store
            .set(&key(server_id, entry), &label, entry.value)
            .await?;
    }
    Ok(())
}

/// Deletes the secrets of `old` that `new` no longer has (all of them when `new` is `None`).
pub async fn delete_dropped(
    store: &dyn SecretStore,
    server_id: &str,
    old: &ServerSpec,
    new: Option<&ServerSpec>,
) -> Result<()> {
    let keep = new.map(entries).unwrap_or_default();
    for entry in entries(old) {
        if !keep
            .iter()
            .any(|k| k.kind == entry.kind && k.name == entry.name)
        {
            store.delete(&key(server_id, &entry)).await?;
        }
    }
    Ok(())
}

/// One secret value of a server, read back from the keyring for connecting.
#[derive(Debug, Clone)]
pub struct SecretValue {
    pub kind: SecretKind,
    /// The env variable's or header's name.
    pub name: String,
    pub value: Sensitive<String>,
}

/// The secret values of a server's config, in its order, read back from the keyring. The config
/// itself keeps them blank: they live only in these [`Sensitive`] values, which never print.
pub async fn resolve(store: &dyn SecretStore, config: &ServerConfig) -> Result<Vec<SecretValue>> {
    let mut values = Vec::new();
    for entry in entries(&config.spec) {
        let value = store.get(&key(&config.id, &entry)).await?.ok_or_else(|| {
            HostError::Secrets(format!(
                "the secret `{}` of server `{}` is missing from the OS keyring; edit the server and enter it again",
                entry.name, config.name
            ))
        })?;
        values.push(SecretValue {
            kind: entry.kind,
            name: entry.name.to_owned(),
            value,
        });
    }
    Ok(values)
}
