//! The servers' life: how a stdio server is started ([`launch`], with the login shell's
//! environment from [`login_env`]), its process group recorded and swept ([`process_groups`],
//! with [`process_lives`] and [`process_table`] telling a recorded process from a later one),
//! the live session of every enabled server ([`sessions`]: connect, list, follow, restart), the
//! notices a session still has to act on ([`notice_queue`]), and what a server writes: its
//! stderr kept ([`server_logs`]) and its log messages bounded ([`log_rate`]).

pub(crate) mod launch;
pub(crate) mod log_rate;
pub mod login_env;
pub(crate) mod notice_queue;
pub mod process_groups;
pub(crate) mod process_lives;
pub(crate) mod process_table;
pub mod server_logs;
pub(crate) mod sessions;
