//! A server process's life, below the connection that talks to it: how a stdio server is
//! started ([`launch`], with the login shell's environment from [`login_env`], stopped within
//! its [`stop_grace`]), its process
//! group recorded and swept ([`process_groups`], with [`crate::os`] telling a recorded process
//! from a later one), the notices a session still has to act on ([`notice_queue`]), and what a
//! server writes: its stderr kept ([`server_logs`]) and its log messages bounded
//! ([`log_rate`]), and every JSON-RPC message of its connection recorded ([`traffic`]). The
//! live sessions that use all this are in [`crate::sessions`].

pub(crate) mod env_refs;
pub(crate) mod launch;
pub(crate) mod log_rate;
pub mod login_env;
pub(crate) mod notice_queue;
pub mod process_groups;
pub mod server_logs;
pub(crate) mod stop_grace;
pub mod traffic;
