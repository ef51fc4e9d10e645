//! The subcommands' implementations, one module each.

pub mod conformance;
pub mod server;
pub mod tools;
