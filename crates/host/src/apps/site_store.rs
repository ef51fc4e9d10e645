//! The app site lists in SQLite (`app_sites`): read whole for each view, so a change made by
//! the CLI applies to the app's next view, and changed one domain at a time.

use sqlx::{Row, SqlitePool};

use super::sites::{AppSites, SiteList};
use crate::error::{HostError, Result};

/// Most domains the two lists hold together.
pub const MAX_SITES: i64 = 1000;

pub struct SiteStore {
    pool: SqlitePool,
}

impl SiteStore {
    pub fn new(pool: SqlitePool) -> Self {
        Self { pool }
    }

    /// Both lists, each sorted by domain.
    pub async fn lists(&self) -> Result<AppSites> {
        let rows = sqlx::query("SELECT domain, list FROM app_sites ORDER BY domain")
            .fetch_all(&self.pool)
            .await?;
        let mut sites = AppSites::default();
        for row in rows {
            let domain: String = row.try_get("domain")?;
            let list: String = row.try_get("list")?;
            match SiteList::parse(&list)? {
                SiteList::Allow => sites.allow.push(domain),
                SiteList::Block => sites.block.push(domain),
            }
        }
        Ok(sites)
    }

    /// Puts `domain` (already canonical) on `list`, moving it from the other list if it was
    /// there; the list it was on before, if any. A new domain past [`MAX_SITES`] is refused.
    pub async fn put(&self, domain: &str, list: SiteList) -> Result<Option<SiteList>> {
        let mut tx = self.pool.begin().await?;
        let before: Option<String> =
            sqlx::query_scalar("SELECT list FROM app_sites WHERE domain = ?")
                .bind(domain)
                .fetch_optional(&mut *tx)
                .await?;
        if before.is_none() {
            let held: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM app_sites")
                .fetch_one(&mut *tx)
                .await?;
            if held >= MAX_SITES {
                return Err(HostError::Validation(format!(
                    "the app site lists hold at most {MAX_SITES} domains; remove one first"
                )));
            }
        }
        sqlx::query(
            "INSERT INTO app_sites (domain, list) VALUES (?, ?) \
             ON CONFLICT(domain) DO UPDATE SET list = excluded.list",
        )
        .bind(domain)
        .bind(list.as_str())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        before.as_deref().map(SiteList::parse).transpose()
    }

    /// Takes `domain` off whichever list it is on.
    pub async fn remove(&self, domain: &str) -> Result<()> {
        let removed = sqlx::query("DELETE FROM app_sites WHERE domain = ?")
            .bind(domain)
            .execute(&self.pool)
            .await?
            .rows_affected();
        if removed == 0 {
            return Err(HostError::Validation(format!(
                "`{domain}` is on neither app site list"
            )));
        }
        Ok(())
    }
}
