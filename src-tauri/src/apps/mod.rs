//! MCP Apps in the shell (SEP-1865, ext-apps `specification/2026-01-26/apps.mdx`): each view in
//! a webview of its own that holds no capability, showing the sandbox proxy page of its own
//! origin over the view's panel; the bounded table of open views that ties each proxy page to
//! its view's Content-Security-Policy and webview; the relay of the view's messages to the
//! window; and the checks on what an app may ask the shell to do (open a link, save a file).

pub mod download;
pub mod file_name;
pub mod link;
pub mod navigation;
pub mod open_views;
pub mod origins;
pub mod placement;
pub mod relay;
pub mod sandbox_scheme;
#[cfg(target_os = "linux")]
pub mod view_layer;
pub mod view_webviews;

pub use open_views::{OpenViews, ViewEntry};
