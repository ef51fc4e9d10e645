//! One target's verdict: met, missed, or unjudged when what it compares was not measured.

use serde::Serialize;

/// Whether a target is met.
#[derive(Debug, Clone, Serialize)]
pub struct Target {
    pub name: &'static str,
    /// `None` when it could not be measured.
    pub met: Option<bool>,
    pub detail: String,
}

/// A target that could not be judged, and why.
pub fn unjudged(name: &'static str, why: &str) -> Target {
    Target {
        name,
        met: None,
        detail: format!("not measured ({why})"),
    }
}
