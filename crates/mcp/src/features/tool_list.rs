//! `tools/list` (2025-11-25 server/tools): every page of tools, less those whose `x-mcp-header`
//! annotations break the rules, their output schemas prepared, and the client's tools-by-name
//! remembered for validating results.

use crate::client::Client;
use crate::error::Result;
use crate::types::ToolPage;

impl Client {
    /// Lists every tool, following `nextCursor` until the last page.
    pub async fn list_tools(&self) -> Result<ToolPage> {
        self.require_capability("tools", "tools")?;
        let mut page: ToolPage = self.list_all("tools/list", "tools", None).await?;
        // A tool whose x-mcp-header annotations break the rules is left out (2026-07-28
        // streamable-http, "Custom Headers from Tool Parameters").
        for tool in std::mem::take(&mut page.items) {
            match super::param_headers::header_params(&tool) {
                Ok(_) => page.items.push(tool),
                Err(why) => {
                    tracing::warn!("leaving out tool `{}`: {why}", tool.name);
                    page.malformed
                        .push(serde_json::to_value(&tool).unwrap_or_default());
                }
            }
        }
        super::output_schema::shared().prepare(&page.items).await;
        self.remember_tools(&page.items);
        Ok(page)
    }
}
