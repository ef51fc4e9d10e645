//! MCP Apps in the shell (SEP-1865, ext-apps `specification/2026-01-26/apps.mdx`): the sandbox
//! proxy page on its own origin, the bounded table of open views that ties each proxy page to
//! its view's Content-Security-Policy, and the checks on what an app may ask the shell to do
//! (open a link, save a file).

pub mod download;
pub mod file_name;
pub mod link;
pub mod open_views;
pub mod origins;
pub mod sandbox_scheme;

pub use open_views::{OpenViews, ViewEntry};
