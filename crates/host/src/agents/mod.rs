//! The person's agents (Claude Code, Claude Desktop, Cursor, VS Code, Codex, Gemini CLI,
//! Windsurf, Zed) and the MCP registry's `server.json`: where each keeps its MCP servers
//! ([`places`], [`discover`]), each format read into one neutral [`model`] (one file per agent,
//! citing its documentation; the shared entry reading in [`entry`] and [`section`]), the
//! `${…}` [`references`] in values, which values are [`secrets`] and where they sit in [`plaintext`], which entries already go
//! [`through`] Gatehouse, and the [`listing`] that may be shown (names, never values). Files
//! are only read, with a bound ([`read`]); nothing here writes, opens the database or the
//! keyring. It uses nothing else of the engine.

mod claude_code;
mod claude_desktop;
mod codex;
mod cursor;
pub mod discover;
pub mod entry;
mod gemini;
pub mod listing;
pub mod model;
pub mod places;
pub mod plaintext;
pub mod read;
pub mod references;
mod registry;
pub mod secrets;
pub mod section;
pub mod through;
mod vscode;
mod windsurf;
mod zed;

pub use discover::discover;
pub use model::{Agent, ConfigFile, Launch, ServerEntry};
pub use places::Places;
