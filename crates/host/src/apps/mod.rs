//! MCP Apps (SEP-1865, the `io.modelcontextprotocol/ui` extension), the engine's side: which
//! tools have a UI and who may call them ([`tool_ui`]), a UI resource made ready to render
//! ([`view`]), the Content-Security-Policy of its view ([`csp`]), narrowed by the person's
//! global lists of outside sites ([`sites`], kept by [`site_store`]). The views themselves are
//! rendered by the app's window in sandboxed frames on a separate origin; every request a view
//! makes comes back through [`crate::Host`]'s `app_*` calls and the gate, with the `app` source.
//!
//! The live sessions of a host opened with `render_apps` (the app) declare
//! `extensions["io.modelcontextprotocol/ui"]` in both eras; the CLI's connections do not.

pub(crate) mod csp;
mod extension;
pub(crate) mod site_store;
pub mod sites;
pub(crate) mod source_risk;
pub(crate) mod tool_ui;
pub(crate) mod view;

pub use csp::{AppCsp, CspError};
pub use extension::{APP_MIME_TYPE, UI_EXTENSION};
pub use sites::{AppSites, SiteList};
pub use tool_ui::{ToolUi, ToolVisibility, visible_to};
pub use view::{AppPermissions, AppView};
