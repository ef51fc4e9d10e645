//! What the engine reports about a server's live connection: its state, what it offers, and
//! its tools.

use serde::{Deserialize, Serialize};

pub use crate::vocabulary::status::{Offer, ServerStatus};

use crate::store::registry::model::ServerConfig;

/// A server's configuration with its current status.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ServerView {
    pub config: ServerConfig,
    pub status: ServerStatus,
}

/// A tool as shown to the user.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ToolInfo {
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub input_schema: serde_json::Value,
    /// Its MCP App and who may call it (`_meta.ui`), if it declares them.
    pub ui: Option<crate::apps::ToolUi>,
}

impl From<&gatehouse_mcp::Tool> for ToolInfo {
    fn from(tool: &gatehouse_mcp::Tool) -> Self {
        // The 2025-06-18+ `title` wins; older servers put it in `annotations.title`.
        let title = tool.title.clone().or_else(|| {
            tool.extra
                .get("annotations")
                .and_then(|a| a.get("title"))
                .and_then(|t| t.as_str())
                .map(str::to_owned)
        });
        Self {
            name: tool.name.clone(),
            title,
            description: tool.description.clone(),
            input_schema: tool.input_schema.clone(),
            ui: crate::apps::ToolUi::of(tool),
        }
    }
}
