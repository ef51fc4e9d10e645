//! Typed MCP operations, each an `impl Client` block in its own module.

pub mod elicitation;
pub mod tools;
