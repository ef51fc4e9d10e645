//! The policy: rules in layers that say whether a request is allowed, asked about or denied
//! ([`rule`]), their deterministic evaluation ([`evaluate`]), and where they are kept with the
//! tool definitions seen ([`store`]), and the standing grants made from approvals
//! ([`grants`]). The gate asks it about every request.

pub(crate) mod evaluate;
pub(crate) mod grants;
mod path_glob;
pub(crate) mod rule;
pub(crate) mod rule_view;
pub mod store;

#[cfg(test)]
mod client_tests;
#[cfg(all(test, unix))]
mod path_tests;
#[cfg(test)]
mod tests;

pub use evaluate::{PolicyInput, Verdict, evaluate};
pub use grants::{Covers, Grant, GrantKey, GrantScope, Grants, arguments_digest};
pub use rule::{ArgumentMatch, Effect, Layer, MAX_CLIENT_NAME, Pattern, Reach, Rule};
pub use rule_view::RuleView;
pub use store::{PolicyStore, ToolDefinitionRecord};
