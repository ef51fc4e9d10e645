//! The gate's rule for tool calls an MCP App makes (SEP-1865, "Visibility"): a view may call
//! only tools of its own server whose `visibility` includes `"app"`. A tool that server does
//! not list (another server's, or none) is refused the same way. The refusal is a decision on
//! record like any other, by `visibility`, before the policy is asked.

use gatehouse_mcp::Tool;
use serde_json::Value;

use super::decision::Decision;
use crate::apps::{ToolVisibility, visible_to};
use crate::vocabulary::request::{GateRequest, RequestKind, Source};

/// The refusal of an app's tool call its tool's visibility does not allow; `None` for
/// everything else.
pub(super) fn refusal(request: &GateRequest, definition: Option<&Tool>) -> Option<Decision> {
    let RequestKind::ToolCall { tool, .. } = &request.kind else {
        return None;
    };
    if request.source != Source::App {
        return None;
    }
    let reason = match definition {
        None => format!(
            "`{}` lists no tool `{tool}`; an app may only call its own server's tools",
            request.server
        ),
        Some(definition) if !visible_to(definition, ToolVisibility::App) => {
            format!("the tool `{tool}` is not visible to apps (its visibility lacks \"app\")")
        }
        Some(_) => return None,
    };
    Some(Decision {
        allowed: false,
        reason,
        rule: None,
        by: "visibility",
        extra: Value::Null,
        edited: None,
    })
}
