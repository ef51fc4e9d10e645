//! The Gatehouse engine, shared by the desktop app and the `gatehouse` CLI: where data lives,
//! the SQLite store, the server registry, live sessions, the events they emit and the audit log.
//! It has no Tauri dependency and is fully usable headless.

pub mod apps;
pub mod canonical;
pub mod connections;
pub mod error;
pub mod events;
pub mod fs_path;
pub mod host;
pub mod oversight;
pub mod roots;
pub mod running;
pub mod store;

pub use connections::{
    connect, connection, connection_trail, grant_sources, loopback_prompt, oauth_connection,
    server_requests, sign_in,
};
pub use oversight::{approvals, audit, gate, policy};
pub use running::{
    launch, log_rate, login_env, notice_queue, process_groups, server_logs, sessions,
};
pub use store::{paths, registry, secrets, storage};

pub use apps::{AppCsp, AppPermissions, AppSites, AppView, SiteList, ToolUi, ToolVisibility};
pub use audit::{
    AuditEvent, AuditFilter, AuditKind, AuditLog, AuditRow, ChainReport, CheckOptions, Checkpoint,
    ExportFormat, PruneReport, VerifyReport,
};
pub use connection::ServerConnection;
pub use error::{HostError, Result};
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
