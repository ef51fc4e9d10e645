//! A listing's URIs or names as the connection last listed them in full ([`crate::listed`]),
//! or listed now when none is kept (or a fresh look is asked for): what a host routes a
//! resource's URI or a prompt's name by, without listing every server for each request.

use std::sync::Arc;

use crate::client::Client;
use crate::error::Result;
use crate::listed::Listing;

impl Client {
    /// The URIs (resources, templates) or names (prompts) of `listing`: as kept, unless
    /// `fresh`; otherwise listed now (and kept for next time).
    pub async fn listed_names(&self, listing: Listing, fresh: bool) -> Result<Arc<[String]>> {
        if !fresh && let Some(kept) = self.peer().listed().get(listing) {
            return Ok(kept);
        }
        Ok(match listing {
            Listing::Resources => self
                .list_resources()
                .await?
                .items
                .into_iter()
                .map(|r| r.uri)
                .collect(),
            Listing::Templates => self
                .list_resource_templates()
                .await?
                .items
                .into_iter()
                .map(|t| t.uri_template)
                .collect(),
            Listing::Prompts => self
                .list_prompts()
                .await?
                .items
                .into_iter()
                .map(|p| p.name)
                .collect(),
        })
    }
}
