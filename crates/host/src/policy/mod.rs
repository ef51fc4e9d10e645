//! The policy: rules in layers that say whether a request is allowed, asked about or denied
//! ([`rule`]), and their deterministic evaluation ([`evaluate`]). The gate asks it about every
//! request.

pub mod evaluate;
pub mod rule;

#[cfg(test)]
mod tests;

pub use evaluate::{PolicyInput, Verdict, evaluate};
pub use rule::{ArgumentMatch, Effect, Pattern, Rule};
