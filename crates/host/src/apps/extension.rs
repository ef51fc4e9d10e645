//! The MCP Apps extension's names: its capability key and the UI resource type hosts render.

/// The extension's identifier, the key of its capability.
pub const UI_EXTENSION: &str = "io.modelcontextprotocol/ui";
/// The one UI resource type hosts render today.
pub const APP_MIME_TYPE: &str = "text/html;profile=mcp-app";
