//! One gateway client as the person looks at it (`gatehouse clients show`, the window's Clients
//! page): its record (token state, last seen), its profile, and its recent requests from the
//! audit log.

use serde::Serialize;

use super::clients::ClientRecord;
use super::profile_store::ClientProfile;
use crate::error::Result;
use crate::host::Host;
use crate::oversight::audit::{AuditFilter, AuditRow};

/// How many of a client's recent audit rows are shown.
pub const RECENT: u32 = 20;

/// A client, its profile and its recent requests.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ClientView {
    pub client: ClientRecord,
    pub profile: ClientProfile,
    /// Its latest audit rows (decisions and outcomes), newest first.
    pub recent: Vec<AuditRow>,
}

impl Host {
    /// The client named `name`, with its profile and recent requests.
    pub async fn client_view(&self, name: &str) -> Result<ClientView> {
        let client = self.clients().get(name).await?;
        let profile = self.client_profiles().get(Some(name)).await?;
        let filter = AuditFilter {
            client: Some(name.to_owned()),
            limit: Some(RECENT * 4),
            ..AuditFilter::default()
        };
        let recent = self
            .audit()
            .list(&filter)
            .await?
            .into_iter()
            .filter(|row| row.event.decision.is_some() || row.event.duration_ms.is_some())
            .take(RECENT as usize)
            .collect();
        Ok(ClientView {
            client,
            profile,
            recent,
        })
    }
}
