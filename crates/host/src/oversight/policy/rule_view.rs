//! A rule as shown to the person ([`RuleView`]): with its server's name, the source and client
//! it is for, and whether a rule made for one definition of a tool is stale.

use serde::{Deserialize, Serialize};

use super::rule::{ArgumentMatch, Effect};

/// A rule as shown to the person.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct RuleView {
    pub id: String,
    /// The server's name; `None` for a global rule.
    pub server: Option<String>,
    pub server_id: Option<String>,
    pub tool: Option<String>,
    pub argument: Option<ArgumentMatch>,
    pub decision: Effect,
    pub definition_hash: Option<String>,
    /// Only requests from this source; none: every source.
    pub source: Option<crate::vocabulary::request::Source>,
    /// Only requests from this client of the gateway (the source is then `gateway`); none:
    /// every caller of the source.
    pub client: Option<String>,
    /// An allow rule for a tool whose current definition is not the one it was made for.
    pub stale: bool,
    /// For a rule on a tool: the hash of the definition the server shows now, when one is
    /// known (with `definition_hash`, what a stale rule's tool changed from and to).
    pub current_definition_hash: Option<String>,
}
