//! What the engine reports about a server's live connection and its tools.

use serde::{Deserialize, Serialize};

use crate::registry::model::ServerConfig;

/// A server's connection state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "state",
    rename_all = "lowercase",
    rename_all_fields = "camelCase"
)]
pub enum ServerStatus {
    /// The server is disabled; nothing runs.
    Disabled,
    /// Starting the server and running the handshake.
    Connecting,
    /// Initialized and ready.
    Connected {
        protocol_version: String,
        /// `modern` (2026-07-28) or `legacy` (the `initialize` handshake).
        era: String,
        server_name: String,
        server_version: String,
        tool_count: u32,
    },
    /// The connection could not be made or was lost; the message says why.
    Failed { message: String },
}

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
        }
    }
}
