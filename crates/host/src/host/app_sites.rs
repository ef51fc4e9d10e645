//! The person's global app site lists through the host: read them, put a domain on one, take
//! it off; each change is a `policy_change` row on the audit log. `Host::app_view` applies them
//! to every view it makes ready.

use serde_json::json;

use super::Host;
use crate::apps::site_store::SiteStore;
use crate::apps::sites::{self, AppSites, SiteList};
use crate::error::Result;

impl Host {
    fn sites(&self) -> SiteStore {
        SiteStore::new(self.store.pool().clone())
    }

    /// Both app site lists.
    pub async fn app_sites(&self) -> Result<AppSites> {
        self.sites().lists().await
    }

    /// Puts the domain the person gave (a domain, or a URL whose host is taken) on `list`,
    /// moving it off the other; the lists afterwards.
    pub async fn add_app_site(&self, list: SiteList, domain: &str) -> Result<AppSites> {
        let domain = sites::domain(domain)?;
        let before = self.sites().put(&domain, list).await?;
        let change = match list {
            SiteList::Allow => "app site allowed",
            SiteList::Block => "app site blocked",
        };
        let mut detail = json!({ "domain": domain });
        if let Some(before) = before.filter(|b| *b != list) {
            detail["was"] = json!(before.as_str());
        }
        self.record_policy_change(change, detail).await?;
        self.app_sites().await
    }

    /// Takes a domain off whichever app site list it is on; the lists afterwards.
    pub async fn remove_app_site(&self, domain: &str) -> Result<AppSites> {
        let domain = sites::domain(domain)?;
        self.sites().remove(&domain).await?;
        self.record_policy_change("app site removed", json!({ "domain": domain }))
            .await?;
        self.app_sites().await
    }
}
