//! The subcommands' implementations, one module each, and the connection they share.

pub mod app_sites;
pub mod approvals;
pub mod audit;
pub mod audit_export;
pub mod audit_prune;
pub mod audit_verify;
pub mod auth;
pub mod call;
pub mod clients;
pub mod complete;
pub mod conformance;
pub mod conformance_auth;
pub mod connection;
pub mod engine;
pub mod grants;
pub mod info;
pub mod logs;
pub mod mcp;
pub mod ping;
pub mod policy;
pub mod prompts;
pub mod resources;
pub mod server;
pub mod tasks;
pub mod tools;
pub mod watch;
