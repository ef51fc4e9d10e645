//! The gateway's clients: the agents the person named (`gatehouse clients add NAME`), each with
//! at most one bearer token for the HTTP endpoint. The `clients` table keeps the name, when it
//! was added and last seen, and a serial that moves on each time a token is created; the token
//! itself lives only in the OS keyring ([`SecretKey::ClientToken`], under the data directory's
//! id, so that two data directories may each have a client of one name) and is shown once, when
//! created. A token is `ghc_` and 32 random bytes from the OS, base64url. Each client also has
//! its naming choice: `prefix` on (every tool and prompt is `SERVER__NAME`, the default, and what
//! an agent the table does not know gets) or off (bare names where nothing collides).

use base64::Engine as _;
use gatehouse_mcp::Sensitive;
use serde::Serialize;
use sqlx::{Row, SqlitePool};

use crate::error::{HostError, Result};
use crate::host::Host;
use crate::oversight::audit::key_source::data_dir_id;
use crate::oversight::client_presence::{Attached, Presence};
use crate::store::secrets::{SecretKey, SecretStore};

/// What every token starts with, so a leaked one is recognisable.
pub const TOKEN_PREFIX: &str = "ghc_";
/// The longest client name.
const MAX_NAME: usize = 64;

/// One client, as listed.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ClientRecord {
    pub name: String,
    pub created_at: String,
    /// When the gateway last served it over HTTP (at most a minute stale).
    pub last_seen: Option<String>,
    /// Whether it has a token (the token itself is never listed).
    pub has_token: bool,
    pub token_created_at: Option<String>,
    /// Whether it sees tools and prompts as `SERVER__NAME` always (else bare where no other
    /// server offers the same name).
    pub prefix: bool,
    /// Whether it is attached to this engine now, with how many sessions and since when (known
    /// in the engine's process only: `None` in a CLI running on its own).
    pub connected: Option<Attached>,
}

/// The clients, on the store's database and the keyring.
pub struct Clients<'a> {
    pool: &'a SqlitePool,
    secrets: &'a dyn SecretStore,
    presence: &'a Presence,
}

impl Host {
    /// The gateway's clients and their tokens.
    pub fn clients(&self) -> Clients<'_> {
        Clients {
            pool: self.store().pool(),
            secrets: self.registry().secrets(),
            presence: self.gateway_presence(),
        }
    }
}

/// A client's name: letters, digits, `_ . -`, at most 64 characters (it appears in approvals,
/// the audit log and keyring account names).
pub fn validate_name(name: &str) -> Result<()> {
    let valid = !name.is_empty()
        && name.len() <= MAX_NAME
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'));
    if valid {
        Ok(())
    } else {
        Err(HostError::Validation(format!(
            "`{name}` is not a valid client name: use 1 to {MAX_NAME} letters, digits, `_`, `.` or `-`"
        )))
    }
}

impl Clients<'_> {
    /// Adds a client with no token yet.
    pub async fn add(&self, name: &str) -> Result<ClientRecord> {
        validate_name(name)?;
        let added = sqlx::query("INSERT INTO clients (name) VALUES (?) ON CONFLICT DO NOTHING")
            .bind(name)
            .execute(self.pool)
            .await?;
        if added.rows_affected() == 0 {
            return Err(HostError::DuplicateName(format!(
                "a client named `{name}` already exists"
            )));
        }
        self.get(name).await
    }

    /// Every client, by name.
    pub async fn list(&self) -> Result<Vec<ClientRecord>> {
        let rows = sqlx::query(
            "SELECT name, created_at, last_seen, token_serial, token_created_at, prefix FROM clients ORDER BY name",
        )
        .fetch_all(self.pool)
        .await?;
        rows.iter().map(|row| record(row, self.presence)).collect()
    }

    /// One client.
    pub async fn get(&self, name: &str) -> Result<ClientRecord> {
        let row = sqlx::query(
            "SELECT name, created_at, last_seen, token_serial, token_created_at, prefix FROM clients WHERE name = ?",
        )
        .bind(name)
        .fetch_optional(self.pool)
        .await?;
        match row {
            Some(row) => record(&row, self.presence),
            None => Err(not_found(name)),
        }
    }

    /// Removes a client and its token.
    pub async fn remove(&self, name: &str) -> Result<()> {
        let removed = sqlx::query("DELETE FROM clients WHERE name = ?")
            .bind(name)
            .execute(self.pool)
            .await?;
        if removed.rows_affected() == 0 {
            return Err(not_found(name));
        }
        self.forget_token(name).await
    }

    /// Creates the client's token, replacing the one it had: stored in the keyring first, then
    /// recorded, and returned to be shown once.
    pub async fn create_token(&self, name: &str) -> Result<Sensitive<String>> {
        self.get(name).await?;
        let token = new_token()?;
        let label = format!("Gatehouse gateway token for {name}");
        self.secrets
            .set(&self.key(name).await?, &label, token.expose())
            .await?;
        sqlx::query(
            "UPDATE clients SET token_serial = ?, token_created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE name = ?",
        )
        .bind(new_serial()?)
        .bind(name)
        .execute(self.pool)
        .await?;
        Ok(token)
    }

    /// Revokes the client's token: unrecorded first (a running engine refuses it from its next
    /// request on), then deleted from the keyring.
    pub async fn revoke_token(&self, name: &str) -> Result<()> {
        let client = self.get(name).await?;
        if !client.has_token {
            return Err(HostError::NotFound(format!("client `{name}` has no token")));
        }
        sqlx::query(
            "UPDATE clients SET token_serial = NULL, token_created_at = NULL WHERE name = ?",
        )
        .bind(name)
        .execute(self.pool)
        .await?;
        self.forget_token(name).await
    }

    /// Deletes the client's token from the keyring, where this data directory keeps it and
    /// where tokens were kept before.
    async fn forget_token(&self, name: &str) -> Result<()> {
        self.secrets.delete(&self.key(name).await?).await?;
        self.secrets.delete(&legacy_key(name)).await
    }

    /// The keyring entry of the client's token: this data directory's.
    async fn key(&self, name: &str) -> Result<SecretKey> {
        Ok(SecretKey::ClientToken {
            data_dir_id: Some(data_dir_id(self.pool).await?),
            client: name.to_owned(),
        })
    }

    /// Sets whether the client sees the servers' prefix on every tool and prompt name.
    pub async fn set_prefix(&self, name: &str, prefix: bool) -> Result<ClientRecord> {
        let set = sqlx::query("UPDATE clients SET prefix = ? WHERE name = ?")
            .bind(prefix)
            .bind(name)
            .execute(self.pool)
            .await?;
        if set.rows_affected() == 0 {
            return Err(not_found(name));
        }
        self.get(name).await
    }

    /// The serial of each client's current token (the clients that have one).
    pub(crate) async fn token_serials(&self) -> Result<Vec<(String, i64)>> {
        let rows =
            sqlx::query("SELECT name, token_serial FROM clients WHERE token_serial IS NOT NULL")
                .fetch_all(self.pool)
                .await?;
        rows.iter()
            .map(|row| Ok((row.try_get("name")?, row.try_get("token_serial")?)))
            .collect()
    }

    /// The serial of one client's current token, `None` when it has none (or is gone).
    pub(crate) async fn token_serial(&self, name: &str) -> Result<Option<i64>> {
        let serial: Option<Option<i64>> =
            sqlx::query_scalar("SELECT token_serial FROM clients WHERE name = ?")
                .bind(name)
                .fetch_optional(self.pool)
                .await?;
        Ok(serial.flatten())
    }

    /// The client's token, from the keyring (where this data directory keeps it, else where
    /// tokens were kept before).
    pub(crate) async fn token(&self, name: &str) -> Result<Option<Sensitive<String>>> {
        match self.secrets.get(&self.key(name).await?).await? {
            Some(token) => Ok(Some(token)),
            None => self.secrets.get(&legacy_key(name)).await,
        }
    }

    /// Records that the client was served now.
    pub(crate) async fn seen(&self, name: &str) -> Result<()> {
        sqlx::query(
            "UPDATE clients SET last_seen = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE name = ?",
        )
        .bind(name)
        .execute(self.pool)
        .await?;
        Ok(())
    }
}

/// Where a client's token was kept before tokens were per data directory: read, and deleted
/// with the token, never written.
fn legacy_key(name: &str) -> SecretKey {
    SecretKey::ClientToken {
        data_dir_id: None,
        client: name.to_owned(),
    }
}

fn not_found(name: &str) -> HostError {
    HostError::NotFound(format!(
        "no client named `{name}` (add it with `gatehouse clients add {name}`)"
    ))
}

fn record(row: &sqlx::sqlite::SqliteRow, presence: &Presence) -> Result<ClientRecord> {
    let serial: Option<i64> = row.try_get("token_serial")?;
    let name: String = row.try_get("name")?;
    Ok(ClientRecord {
        connected: presence.of(&name),
        name,
        created_at: row.try_get("created_at")?,
        last_seen: row.try_get("last_seen")?,
        has_token: serial.is_some(),
        token_created_at: row.try_get("token_created_at")?,
        prefix: row.try_get("prefix")?,
    })
}

fn random<const N: usize>() -> Result<[u8; N]> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes)
        .map_err(|e| HostError::Secrets(format!("the OS gave no random bytes: {e}")))?;
    Ok(bytes)
}

fn new_token() -> Result<Sensitive<String>> {
    let bytes = random::<32>()?;
    let encoded = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
    Ok(Sensitive::new(format!("{TOKEN_PREFIX}{encoded}")))
}

/// A random serial: a new token's never equals the one a running engine holds.
fn new_serial() -> Result<i64> {
    Ok(i64::from_le_bytes(random::<8>()?) & i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        assert!(validate_name("claude-code").is_ok());
        assert!(validate_name("a.b_c-1").is_ok());
        assert!(validate_name("").is_err());
        assert!(validate_name("a/b").is_err());
        assert!(validate_name(&"x".repeat(65)).is_err());
    }

    #[test]
    fn tokens_are_long_and_distinct() {
        let (a, b) = (new_token().expect("a token"), new_token().expect("a token"));
        assert!(a.expose().starts_with(TOKEN_PREFIX));
        assert_eq!(a.expose().len(), TOKEN_PREFIX.len() + 43);
        assert_ne!(a.expose(), b.expose());
    }
}
