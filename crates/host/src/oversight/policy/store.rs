//! Where the policy lives: its rules, each server's "trust read-only hints" setting, and the
//! definitions a server has shown of each tool (with when each was first and last seen), in the
//! same SQLite database the app and the CLI share (`policy_rules`, each server's
//! `trust_read_only`, `tool_definitions`).
//!
//! The history is bounded, so that a server that changes a tool (a `_meta` nonce, say) on every
//! listing cannot grow the database without end: of each tool, the [`MAX_DEFINITIONS_PER_TOOL`]
//! most recently seen definitions are kept, and of each server the
//! [`MAX_DEFINITIONS_PER_SERVER`] most recently seen; a definition a rule or a grant was made
//! for is always kept, so a stale rule can still show what changed.

use gatehouse_mcp::Tool;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::Row;
use sqlx::sqlite::{SqlitePool, SqliteRow};

use super::rule::{ArgumentMatch, Effect, Pattern, Rule};
use crate::error::{HostError, Result};
use crate::vocabulary::definition::definition_hash;
use crate::vocabulary::request::Source;

const COLUMNS: &str = "id, server_id, tool, pointer, pattern_kind, pattern, outside, effect, definition_hash, source, \
     caller";

/// The most definitions [`PolicyStore::definitions`] returns.
pub const MAX_DEFINITIONS: u32 = 1_000;

/// How many definitions of one tool are kept (besides those a rule or grant names).
pub const MAX_DEFINITIONS_PER_TOOL: u32 = 20;

/// How many definitions of one server's tools are kept (besides those a rule or grant names).
pub const MAX_DEFINITIONS_PER_SERVER: u32 = 10_000;

/// Deletes a server's definitions past the caps, newest first by `last_seen` (then by when they
/// were stored), sparing those a rule or a grant names.
const PRUNE: &str = "DELETE FROM tool_definitions WHERE rowid IN ( \
     SELECT rowid FROM ( \
       SELECT rowid, hash, \
         ROW_NUMBER() OVER (PARTITION BY tool \
           ORDER BY last_seen DESC, first_seen DESC, rowid DESC) AS of_tool, \
         ROW_NUMBER() OVER (ORDER BY last_seen DESC, first_seen DESC, rowid DESC) AS of_server \
       FROM tool_definitions WHERE server_id = ?1) \
     WHERE (of_tool > ?2 OR of_server > ?3) \
       AND hash NOT IN (SELECT definition_hash FROM policy_rules \
                        WHERE definition_hash IS NOT NULL) \
       AND hash NOT IN (SELECT definition_hash FROM grants WHERE definition_hash IS NOT NULL))";

/// One definition a server showed of a tool, with when it was first and last seen.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ToolDefinitionRecord {
    pub tool: String,
    /// The SHA-256 of the canonical definition (see `gate::definition`).
    pub hash: String,
    /// The definition as the server showed it: name, title, description, schemas,
    /// annotations, `_meta`.
    pub definition: Value,
    /// RFC 3339, UTC, milliseconds.
    pub first_seen: String,
    pub last_seen: String,
}

/// The policy's tables.
#[derive(Debug, Clone)]
pub struct PolicyStore {
    pool: SqlitePool,
}

fn effect_of(text: &str) -> Result<Effect> {
    match text {
        "allow" => Ok(Effect::Allow),
        "ask" => Ok(Effect::Ask),
        "deny" => Ok(Effect::Deny),
        other => Err(HostError::Corrupt(format!(
            "unknown policy effect `{other}`"
        ))),
    }
}

fn row_to_rule(row: &SqliteRow) -> Result<Rule> {
    let pointer: Option<String> = row.try_get("pointer")?;
    let kind: Option<String> = row.try_get("pattern_kind")?;
    let pattern: Option<String> = row.try_get("pattern")?;
    let argument = match (pointer, kind.as_deref(), pattern) {
        (Some(pointer), Some("glob"), Some(p)) => Some((pointer, Pattern::Glob(p))),
        (Some(pointer), Some("regex"), Some(p)) => Some((pointer, Pattern::Regex(p))),
        (None, _, _) => None,
        _ => {
            return Err(HostError::Corrupt(
                "a policy rule has a broken argument match".into(),
            ));
        }
    }
    .map(|(pointer, pattern)| -> Result<ArgumentMatch> {
        Ok(ArgumentMatch {
            pointer,
            pattern,
            outside: row.try_get::<i64, _>("outside")? != 0,
        })
    })
    .transpose()?;
    let effect: String = row.try_get("effect")?;
    let source: Option<String> = row.try_get("source")?;
    let source = source
        .map(|text| {
            Source::parse(&text)
                .ok_or_else(|| HostError::Corrupt(format!("a policy rule has source `{text}`")))
        })
        .transpose()?;
    Ok(Rule {
        id: row.try_get("id")?,
        server: row.try_get("server_id")?,
        tool: row.try_get("tool")?,
        argument,
        effect: effect_of(&effect)?,
        definition_hash: row.try_get("definition_hash")?,
        source,
        client: row.try_get("caller")?,
    })
}

impl PolicyStore {
    pub fn new(pool: SqlitePool) -> Self {
        Self { pool }
    }

    /// Every rule, in id order.
    pub async fn rules(&self) -> Result<Vec<Rule>> {
        let sql = format!("SELECT {COLUMNS} FROM policy_rules ORDER BY id");
        let rows = sqlx::query(&sql).fetch_all(&self.pool).await?;
        rows.iter().map(row_to_rule).collect()
    }

    /// The rules that can concern a server: its own and the global ones.
    pub async fn rules_for(&self, server_id: &str) -> Result<Vec<Rule>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM policy_rules WHERE server_id IS NULL OR server_id = ? ORDER BY id"
        );
        let rows = sqlx::query(&sql)
            .bind(server_id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(row_to_rule).collect()
    }

    /// Checks and stores a rule under a new id, which it returns with the rule.
    pub async fn add(&self, mut rule: Rule) -> Result<Rule> {
        rule.validate()?;
        rule.id = format!("r-{}", &uuid::Uuid::new_v4().simple().to_string()[..8]);
        let (pointer, kind, pattern, outside) = match &rule.argument {
            Some(a) => {
                let (kind, text) = match &a.pattern {
                    Pattern::Glob(g) => ("glob", g.as_str()),
                    Pattern::Regex(r) => ("regex", r.as_str()),
                };
                (Some(a.pointer.as_str()), Some(kind), Some(text), a.outside)
            }
            None => (None, None, None, false),
        };
        sqlx::query(
            "INSERT INTO policy_rules (id, server_id, tool, pointer, pattern_kind, pattern, outside, \
             effect, definition_hash, source, caller) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(&rule.id)
        .bind(&rule.server)
        .bind(&rule.tool)
        .bind(pointer)
        .bind(kind)
        .bind(pattern)
        .bind(outside)
        .bind(rule.effect.as_str())
        .bind(&rule.definition_hash)
        .bind(rule.source.map(Source::as_str))
        .bind(&rule.client)
        .execute(&self.pool)
        .await?;
        Ok(rule)
    }

    /// Deletes a rule.
    pub async fn remove(&self, id: &str) -> Result<()> {
        let removed = sqlx::query("DELETE FROM policy_rules WHERE id = ?")
            .bind(id)
            .execute(&self.pool)
            .await?
            .rows_affected();
        if removed == 0 {
            return Err(HostError::NotFound(id.to_owned()));
        }
        Ok(())
    }

    /// Whether the person trusts this server's `readOnlyHint` annotations.
    pub async fn trusts_read_only(&self, server_id: &str) -> Result<bool> {
        let trusted: Option<i64> =
            sqlx::query_scalar("SELECT trust_read_only FROM server_policy WHERE server_id = ?")
                .bind(server_id)
                .fetch_optional(&self.pool)
                .await?;
        Ok(trusted.unwrap_or(0) != 0)
    }

    pub async fn set_trust_read_only(&self, server_id: &str, trust: bool) -> Result<()> {
        sqlx::query(
            "INSERT INTO server_policy (server_id, trust_read_only) VALUES (?, ?) \
             ON CONFLICT(server_id) DO UPDATE SET trust_read_only = excluded.trust_read_only",
        )
        .bind(server_id)
        .bind(trust)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Keeps the definitions a server showed of its tools, in one transaction: a new
    /// definition is added, one seen before has its `last_seen` moved on, and the server's
    /// history is cut back to its caps.
    pub async fn record_definitions(&self, server_id: &str, tools: &[Tool]) -> Result<()> {
        let mut transaction = self.pool.begin().await?;
        for tool in tools {
            let definition = serde_json::to_string(tool)
                .map_err(|e| HostError::Corrupt(format!("cannot encode a tool definition: {e}")))?;
            sqlx::query(
                "INSERT INTO tool_definitions (server_id, tool, hash, definition)                  VALUES (?, ?, ?, ?) ON CONFLICT(server_id, tool, hash) DO UPDATE SET                    last_seen = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
            )
            .bind(server_id)
            .bind(&tool.name)
            .bind(definition_hash(tool))
            .bind(definition)
            .execute(&mut *transaction)
            .await?;
        }
        let pruned = sqlx::query(PRUNE)
            .bind(server_id)
            .bind(i64::from(MAX_DEFINITIONS_PER_TOOL))
            .bind(i64::from(MAX_DEFINITIONS_PER_SERVER))
            .execute(&mut *transaction)
            .await?
            .rows_affected();
        if pruned > 0 {
            tracing::debug!("dropped {pruned} old tool definitions of server {server_id}");
        }
        transaction.commit().await?;
        Ok(())
    }

    /// The definition of a tool last seen, with its hash.
    pub async fn latest_definition(
        &self,
        server_id: &str,
        tool: &str,
    ) -> Result<Option<(String, Value)>> {
        let row = sqlx::query(
            "SELECT hash, definition FROM tool_definitions WHERE server_id = ? AND tool = ? \
             ORDER BY last_seen DESC, first_seen DESC, rowid DESC LIMIT 1",
        )
        .bind(server_id)
        .bind(tool)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| -> Result<(String, Value)> {
            let text: String = row.try_get("definition")?;
            let definition = serde_json::from_str(&text)
                .map_err(|e| HostError::Corrupt(format!("a stored tool definition: {e}")))?;
            Ok((row.try_get("hash")?, definition))
        })
        .transpose()
    }

    /// A definition of a tool the server showed at some time, by its hash.
    pub async fn definition(
        &self,
        server_id: &str,
        tool: &str,
        hash: &str,
    ) -> Result<Option<Value>> {
        let text: Option<String> = sqlx::query_scalar(
            "SELECT definition FROM tool_definitions WHERE server_id = ? AND tool = ? AND hash = ?",
        )
        .bind(server_id)
        .bind(tool)
        .bind(hash)
        .fetch_optional(&self.pool)
        .await?;
        text.map(|text| {
            serde_json::from_str(&text)
                .map_err(|e| HostError::Corrupt(format!("a stored tool definition: {e}")))
        })
        .transpose()
    }

    /// Every definition kept of a server's tools (of one tool, with `tool`), by tool name and
    /// then the most recently seen first; at most [`MAX_DEFINITIONS`].
    pub async fn definitions(
        &self,
        server_id: &str,
        tool: Option<&str>,
    ) -> Result<Vec<ToolDefinitionRecord>> {
        let rows = sqlx::query(
            "SELECT tool, hash, definition, first_seen, last_seen FROM tool_definitions \
             WHERE server_id = ? AND (? IS NULL OR tool = ?) \
             ORDER BY tool, last_seen DESC, first_seen DESC, rowid DESC LIMIT ?",
        )
        .bind(server_id)
        .bind(tool)
        .bind(tool)
        .bind(i64::from(MAX_DEFINITIONS))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let text: String = row.try_get("definition")?;
                let definition = serde_json::from_str(&text)
                    .map_err(|e| HostError::Corrupt(format!("a stored tool definition: {e}")))?;
                Ok(ToolDefinitionRecord {
                    tool: row.try_get("tool")?,
                    hash: row.try_get("hash")?,
                    definition,
                    first_seen: row.try_get("first_seen")?,
                    last_seen: row.try_get("last_seen")?,
                })
            })
            .collect()
    }
}
