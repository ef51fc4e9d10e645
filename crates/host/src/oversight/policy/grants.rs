//! Standing grants: what a person allowed from an approval for longer than one request. "For
//! this session" holds in the Gatehouse process that made it (the app until it quits, a CLI
//! command until it ends); "for a time" holds in every process until it expires. A grant
//! answers only the question it was given for: one tool of one server as it was defined then
//! (a changed tool is not covered), the source that asked (and, for a source with several
//! callers, the caller), the rule whose "ask" the person answered, and the arguments they saw
//! (by digest), unless they chose "any arguments". "Always" is not a grant but a rule (see
//! `Host::add_rule`).
//!
//! A session grant carries its process's instance and pid. Grants of processes that are
//! gone, and expired ones, are cleared.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::{Row, SqlitePool};

use crate::error::{HostError, Result};
pub use crate::vocabulary::approval::Covers;
use crate::vocabulary::request::Source;

/// What a grant is for: a tool of a server as defined, who asked, the rule that asked, and the
/// arguments (the digest of [`arguments_digest`]; none: any arguments). To find a covering
/// grant, `arguments` is the digest of the request's arguments.
#[derive(Debug, Clone, Copy)]
pub struct GrantKey<'a> {
    pub server_id: &'a str,
    pub tool: &'a str,
    pub definition_hash: Option<&'a str>,
    pub source: Source,
    /// The calling client, for a source with several (none for the others).
    pub caller: Option<&'a str>,
    /// The rule whose "ask" was answered; none for a default, a hint or a changed definition.
    pub rule: Option<&'a str>,
    pub arguments: Option<&'a str>,
}

/// The digest a grant keeps of a call's arguments: SHA-256 of their canonical JSON (missing
/// arguments are `{}`), so key order and spacing do not matter and the values are not stored.
pub fn arguments_digest(arguments: Option<&Value>) -> String {
    match arguments {
        Some(arguments) => crate::canonical::sha256(arguments),
        None => crate::canonical::sha256(&serde_json::json!({})),
    }
}

/// How long a grant holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "lowercase")]
pub enum GrantScope {
    /// While the process that made it runs.
    Session,
    /// Until `expiresAt`.
    Timed,
}

/// One standing grant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Grant {
    pub id: String,
    pub server_id: String,
    /// The server's name, when it is still registered.
    pub server: Option<String>,
    pub tool: String,
    pub definition_hash: Option<String>,
    /// The source whose requests it covers, and the caller within it, if that source has
    /// several.
    pub source: Source,
    pub caller: Option<String>,
    /// The rule whose "ask" it answers; none for a default, a hint or a changed definition.
    pub rule: Option<String>,
    /// Whether it covers only the arguments the person allowed, or any.
    pub covers: Covers,
    pub scope: GrantScope,
    /// For a timed grant: RFC 3339 UTC.
    pub expires_at: Option<String>,
    pub created_at: String,
    /// For a session grant: the id of the process that holds it.
    pub pid: Option<u32>,
}

/// The grants, seen from one Gatehouse process.
#[derive(Debug, Clone)]
pub struct Grants {
    pool: SqlitePool,
    /// This process's instance: its session grants carry it.
    instance: String,
}

const COLUMNS: &str = "g.id, g.server_id, s.name AS server, g.tool, g.definition_hash, g.scope, \
                       g.expires_at, g.created_at, g.pid, g.source, g.caller, g.rule_id, \
                       g.arguments_digest";

/// The longest "allow for a time": a week.
pub const MAX_MINUTES: u32 = 7 * 24 * 60;

impl Grants {
    pub fn new(pool: SqlitePool) -> Self {
        Self {
            pool,
            instance: uuid::Uuid::new_v4().to_string(),
        }
    }

    /// Grants what `key` says for this process's session, or for `minutes` minutes when given.
    pub async fn add(&self, key: &GrantKey<'_>, minutes: Option<u32>) -> Result<Grant> {
        if let Some(minutes) = minutes
            && !(1..=MAX_MINUTES).contains(&minutes)
        {
            return Err(HostError::Validation(format!(
                "a grant lasts from 1 minute to {MAX_MINUTES} minutes (a week), not {minutes}"
            )));
        }
        let id = format!("g-{}", &uuid::Uuid::new_v4().simple().to_string()[..8]);
        let (scope, instance, pid) = match minutes {
            Some(_) => ("timed", None, None),
            None => (
                "session",
                Some(self.instance.as_str()),
                Some(i64::from(std::process::id())),
            ),
        };
        let offset = minutes.map(|m| format!("+{} seconds", u64::from(m) * 60));
        sqlx::query(
            "INSERT INTO grants (id, server_id, tool, definition_hash, scope, instance, pid, expires_at, \
                                 source, caller, rule_id, arguments_digest) \
             VALUES (?, ?, ?, ?, ?, ?, ?, \
                     CASE WHEN ? IS NULL THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?) END, \
                     ?, ?, ?, ?)",
        )
        .bind(&id)
        .bind(key.server_id)
        .bind(key.tool)
        .bind(key.definition_hash)
        .bind(scope)
        .bind(instance)
        .bind(pid)
        .bind(&offset)
        .bind(&offset)
        .bind(key.source.as_str())
        .bind(key.caller)
        .bind(key.rule)
        .bind(key.arguments)
        .execute(&self.pool)
        .await?;
        self.get(&id).await
    }

    /// The grant that covers, here and now, the request `key` describes (its `arguments` the
    /// digest of the request's): same tool, definition, source, caller and asking rule, made
    /// for these arguments or for any.
    pub async fn covering(&self, key: &GrantKey<'_>) -> Result<Option<Grant>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM grants g LEFT JOIN servers s ON s.id = g.server_id \
             WHERE g.server_id = ? AND g.tool = ? AND g.definition_hash IS ? \
               AND g.source = ? AND g.caller IS ? AND g.rule_id IS ? \
               AND (g.arguments_digest IS NULL OR g.arguments_digest = ?) \
               AND ((g.scope = 'session' AND g.instance = ?) \
                 OR (g.scope = 'timed' AND g.expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))) \
             ORDER BY g.created_at LIMIT 1"
        );
        let row = sqlx::query(&sql)
            .bind(key.server_id)
            .bind(key.tool)
            .bind(key.definition_hash)
            .bind(key.source.as_str())
            .bind(key.caller)
            .bind(key.rule)
            .bind(key.arguments)
            .bind(&self.instance)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(to_grant).transpose()
    }

    /// Every grant that still holds somewhere (session grants of processes that are gone, and
    /// expired grants, are cleared first), oldest first.
    pub async fn list(&self) -> Result<Vec<Grant>> {
        self.clear_gone().await?;
        let sql = format!(
            "SELECT {COLUMNS} FROM grants g LEFT JOIN servers s ON s.id = g.server_id \
             ORDER BY g.created_at, g.id"
        );
        let rows = sqlx::query(&sql).fetch_all(&self.pool).await?;
        rows.iter().map(to_grant).collect()
    }

    /// Revokes a grant; it covers nothing from now on, in any process.
    pub async fn revoke(&self, id: &str) -> Result<Grant> {
        let grant = self.get(id).await?;
        sqlx::query("DELETE FROM grants WHERE id = ?")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(grant)
    }

    /// Ends this process's session grants (when it shuts down).
    pub async fn end_session(&self) -> Result<()> {
        sqlx::query("DELETE FROM grants WHERE scope = 'session' AND instance = ?")
            .bind(&self.instance)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Deletes expired grants and the session grants of processes that no longer run.
    pub async fn clear_gone(&self) -> Result<()> {
        sqlx::query(
            "DELETE FROM grants WHERE scope = 'timed' \
             AND expires_at <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
        )
        .execute(&self.pool)
        .await?;
        let sessions: Vec<(String, Option<i64>)> =
            sqlx::query_as("SELECT id, pid FROM grants WHERE scope = 'session' AND instance != ?")
                .bind(&self.instance)
                .fetch_all(&self.pool)
                .await?;
        for (id, pid) in sessions {
            let lives = pid
                .and_then(|p| u32::try_from(p).ok())
                .is_some_and(crate::os::process_lives::process_lives);
            if !lives {
                sqlx::query("DELETE FROM grants WHERE id = ?")
                    .bind(id)
                    .execute(&self.pool)
                    .await?;
            }
        }
        Ok(())
    }

    async fn get(&self, id: &str) -> Result<Grant> {
        let sql = format!(
            "SELECT {COLUMNS} FROM grants g LEFT JOIN servers s ON s.id = g.server_id WHERE g.id = ?"
        );
        let row = sqlx::query(&sql)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .ok_or_else(|| HostError::NotFound(format!("grant {id}")))?;
        to_grant(&row)
    }
}

fn to_grant(row: &sqlx::sqlite::SqliteRow) -> Result<Grant> {
    let scope: String = row.try_get("scope")?;
    let pid: Option<i64> = row.try_get("pid")?;
    let source: String = row.try_get("source")?;
    let digest: Option<String> = row.try_get("arguments_digest")?;
    Ok(Grant {
        source: Source::parse(&source)
            .ok_or_else(|| HostError::Corrupt(format!("a grant has source `{source}`")))?,
        caller: row.try_get("caller")?,
        rule: row.try_get("rule_id")?,
        covers: if digest.is_some() {
            Covers::These
        } else {
            Covers::Any
        },
        id: row.try_get("id")?,
        server_id: row.try_get("server_id")?,
        server: row.try_get("server")?,
        tool: row.try_get("tool")?,
        definition_hash: row.try_get("definition_hash")?,
        scope: match scope.as_str() {
            "session" => GrantScope::Session,
            "timed" => GrantScope::Timed,
            other => return Err(HostError::Corrupt(format!("unknown grant scope `{other}`"))),
        },
        expires_at: row.try_get("expires_at")?,
        created_at: row.try_get("created_at")?,
        pid: pid.and_then(|p| u32::try_from(p).ok()),
    })
}
