//! The Gatehouse engine, shared by the desktop app and the `gatehouse` CLI: where data lives,
//! the SQLite store, the server registry, live sessions, the events they emit and the audit log.
//! It has no Tauri dependency and is fully usable headless.
//!
//! Its folders stack in tiers, each using only those below it (`scripts/check-structure.py`
//! fails on a folder circle), lowest first: [`agents`] (the agents' own config files, read
//! only), `vocabulary` (the shared words: `Source`,
//! `GateRequest`, the definition hash, `PendingApproval`, `ServerStatus`, the events), beside
//! `error`, [`canonical`], [`fs_path`], [`icons`] and `os`; then [`apps`] and [`roots`]; `running` (a
//! server process's life); `store` (registry, secrets, storage); `oversight` (its `gate` above
//! `policy`, `approvals` and `audit`); `connections`; `sessions`; and `host` on top, with
//! [`agent_connect`] (rewriting an agent's config to go through Gatehouse) above it.

pub mod agent_connect;
pub mod agent_import;
pub mod agents;
pub mod apps;
pub mod canonical;
mod connections;
pub mod control;
mod error;
mod error_code;
pub mod fs_path;
pub mod gateway;
mod host;
pub mod icons;
mod os;
mod oversight;
pub mod protocol;
pub mod roots;
mod running;
mod sessions;
mod settings;
mod store;
mod vocabulary;

pub use connections::{connect, loopback_prompt, server_requests, sign_in, watching};
pub use os::autostart;
pub use oversight::{approvals, audit, gate, policy};
pub use running::{login_env, process_groups, server_logs, traffic};
pub use store::secrets;

pub use apps::{AppCsp, AppPermissions, AppSites, AppView, SiteList, ToolUi, ToolVisibility};
pub use audit::{
    AuditEvent, AuditFilter, AuditKind, AuditLog, AuditRow, ChainReport, CheckOptions, Checkpoint,
    ExportFormat, PruneReport, VerifyReport,
};
pub use connections::connection::ServerConnection;
pub use error::{HostError, Result};
pub use error_code::ErrorCode;
pub use gate::{CallOutcome, Source, ToolCall};
pub use host::demo_server::DEMO_SERVER;
pub use host::{Host, HostOptions};
pub use loopback_prompt::LoopbackPrompt;
pub use sessions::health::HealthChecks;
pub use sessions::status::{Offer, ServerStatus, ServerView, ToolInfo};
pub use settings::follow::SettingsClock;
pub use sign_in::AuthStatus;
pub use store::engine_settings::{EngineSettings, KEYS as SETTING_KEYS, SettingKey};
pub use store::registry::model::{
    EnvVar, HttpHeader, OAuthClientSettings, OAuthGrant, ServerConfig, ServerInput, ServerSpec,
    ServerTransport, StopGrace,
};
pub use store::registry::task_log::TaskRecord;
pub use vocabulary::events::{EngineEvent, EventBus};
