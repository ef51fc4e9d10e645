//! What the operating system says about processes, below the tiers that record them: whether a
//! recorded process still runs ([`process_lives`]) and its start time, the boot and a group's
//! members ([`process_table`]), so a recorded process is told from a later one with its id; and
//! the session's autostart entry that starts the app at login ([`autostart`]).

pub mod autostart;
pub(crate) mod process_lives;
pub(crate) mod process_table;
