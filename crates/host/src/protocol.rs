//! The protocol's vocabulary the faces work with, re-exported from `gatehouse_mcp` so that the
//! CLI and the app name the engine alone: a tool call's options and result, content, listings,
//! prompts, completions, progress and tasks, a connection's era and its notification listener,
//! an elicitation form's fields, and the handler interface a face implements to answer what a
//! server asks.

pub use gatehouse_mcp::error::RpcError;
pub use gatehouse_mcp::features::elicitation_form::{FieldKind, FormField, form_fields};
pub use gatehouse_mcp::peer::Handler;
pub use gatehouse_mcp::transport::BoxFuture;
pub use gatehouse_mcp::updates::UPDATE_BUFFER;
pub use gatehouse_mcp::{
    CallOptions, CallToolResult, Client, Completion, CompletionRef, Content, Era, GetPromptResult,
    KnownContent, Listener, ListenerEvent, NotificationFilter, Page, Progress, Prompt,
    PromptArgument, PromptMessage, Resource, ResourceContents, ResourceTemplate, Task, Tool,
    ToolPage,
};
