//! A server's resources and prompts from the window (the Resources and Prompts tabs): listed a
//! page at a time, read, filled in, completed and subscribed to, on the server's live session
//! through the gate as the person's own requests (source `user`), with the same host functions
//! the CLI's attached requests use ([`gatehouse_host::control::answers`]).

pub mod prompt_commands;
pub mod resource_commands;
pub mod subscriptions;
pub mod views;
