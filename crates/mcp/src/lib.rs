//! The MCP protocol client: JSON-RPC framing and a request/response peer, the transports that
//! carry it, the lifecycle handshake and typed operations. It knows nothing of SQL or Tauri.
//!
//! Layers, bottom up: [`transport`] moves JSON lines, [`peer`] matches requests to responses and
//! routes server-initiated messages, [`client`] runs the lifecycle and exposes typed features.
//! Below them all sit small shared pieces that any layer may use without a circle: [`error`],
//! [`jsonrpc`], [`future`] (the boxed future of object-safe async methods), [`http_auth`] (what
//! an HTTP transport asks of an authorizer, which [`auth`] implements) and the bounded reading
//! of an HTTP body.

pub mod auth;
pub mod cache;
pub mod client;
pub(crate) mod client_options;
pub mod content;
pub mod era;
pub mod error;
pub mod features;
pub mod future;
pub mod http_auth;
pub(crate) mod http_body;
pub mod json_size;
pub mod jsonrpc;
pub mod listed;
pub mod peer;
pub mod protocol;
pub mod sensitive;
pub mod transport;
pub mod types;
pub mod updates;

pub use client::{Client, ClientOptions, HttpMode};
pub use client_options::app_icon;
pub use content::{Content, KnownContent, ResourceContents};
pub use era::{Era, EraChoice};
pub use error::{McpError, Result};
pub use features::completion::{Completion, CompletionRef};
pub use features::listener::{Listener, ListenerEvent};
pub use features::logging::{LogLevel, UnknownLogLevel};
pub use features::prompts::{
    GetPromptResult, Prompt, PromptArgument, PromptMessage, PromptPage, Role,
};
pub use features::resources::{Resource, ResourcePage, ResourceTemplate, ResourceTemplatePage};
pub use features::subscriptions::{
    NotificationFilter, PendingSubscription, Subscription, SubscriptionEvent,
};
pub use features::tasks::{Task, TaskSupport};
pub use features::tools::{CallOptions, CallToolResult, TaskHandling};
pub use peer::Progress;
pub use sensitive::Sensitive;
pub use transport::http_config::HttpConfig;
pub use transport::stdio::{GroupRecord, StdioConfig};
pub use types::{Implementation, InitializeResult, Page, Tool, ToolPage};
