//! The Gatehouse engine, shared by the desktop app and the `gatehouse` CLI: where data lives,
//! the SQLite store, the server registry, live sessions, the events they emit and the audit log.
//! It has no Tauri dependency and is fully usable headless.

pub mod approvals;
pub mod apps;
pub mod audit;
pub mod canonical;
pub mod connect;
pub mod connection;
pub mod connection_trail;
pub mod error;
pub mod error_code;
pub mod events;
pub mod fs_path;
pub mod gate;
pub mod grant_sources;
pub mod host;
pub mod launch;
pub mod log_rate;
pub mod login_env;
pub mod loopback_prompt;
pub mod notice_queue;
pub mod oauth_connection;
pub mod paths;
pub mod policy;
mod private_files;
pub mod process_groups;
mod process_lives;
mod process_table;
pub mod registry;
pub mod roots;
pub mod secrets;
pub mod server_logs;
pub mod server_requests;
pub mod sessions;
pub mod sign_in;
pub mod storage;

pub use apps::{AppCsp, AppPermissions, AppSites, AppView, SiteList, ToolUi, ToolVisibility};
pub use audit::{
    AuditEvent, AuditFilter, AuditKind, AuditLog, AuditRow, ChainReport, CheckOptions, Checkpoint,
    ExportFormat, PruneReport, VerifyReport,
};
pub use connection::ServerConnection;
pub use error::{HostError, Result};
pub use error_code::ErrorCode;
pub use events::{EngineEvent, EventBus};
pub use gate::{CallOutcome, Source, ToolCall};
pub use host::{Host, HostOptions};
pub use loopback_prompt::LoopbackPrompt;
pub use registry::model::{
    EnvVar, HttpHeader, OAuthClientSettings, OAuthGrant, ServerConfig, ServerInput, ServerSpec,
    ServerTransport, StopGrace,
};
pub use registry::task_log::TaskRecord;
pub use sessions::health::HealthChecks;
pub use sessions::status::{Offer, ServerStatus, ServerView, ToolInfo};
pub use sign_in::AuthStatus;
