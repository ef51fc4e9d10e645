//! The subcommands' implementations, one module each.

pub mod server;
pub mod tools;
