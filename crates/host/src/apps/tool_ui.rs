//! A tool's link to its MCP App (SEP-1865, "Resource Discovery"): the `ui://` resource that
//! renders its results, and who may call it. `_meta.ui.resourceUri` wins over the deprecated
//! flat `_meta["ui/resourceUri"]`; only `ui://` URIs count. `visibility` defaults to both the
//! model and the app when absent; an unknown entry is ignored, so a list with no known entry
//! hides the tool from both (tighter, never looser, than what was declared).
//!
//! What is found is listed as `ToolInfo.ui`. No model-facing tool list exists yet;
//! `visible_to(tool, Model)` is the filter it is to use.

use gatehouse_mcp::Tool;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Who may see and call a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "lowercase")]
pub enum ToolVisibility {
    /// Listed to models and callable by them.
    Model,
    /// Callable by the app of the same server.
    App,
}

/// `_meta.ui` of a tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ToolUi {
    /// The `ui://` resource that renders the tool's results, if it has one.
    pub resource_uri: Option<String>,
    /// Who may call it.
    pub visibility: Vec<ToolVisibility>,
}

const DEFAULT_VISIBILITY: [ToolVisibility; 2] = [ToolVisibility::Model, ToolVisibility::App];

impl ToolUi {
    /// The tool's UI metadata; `None` when it has neither a UI resource nor a visibility.
    pub fn of(tool: &Tool) -> Option<ToolUi> {
        let meta = tool.extra.get("_meta")?;
        let ui = meta.get("ui");
        let resource_uri = ui
            .and_then(|ui| ui.get("resourceUri"))
            .and_then(Value::as_str)
            .or_else(|| meta.get("ui/resourceUri").and_then(Value::as_str))
            .filter(|uri| uri.starts_with("ui://"))
            .map(str::to_owned);
        let declared = ui
            .and_then(|ui| ui.get("visibility"))
            .and_then(Value::as_array);
        if resource_uri.is_none() && declared.is_none() {
            return None;
        }
        Some(ToolUi {
            resource_uri,
            visibility: declared
                .map_or_else(|| DEFAULT_VISIBILITY.to_vec(), |list| visibility(list)),
        })
    }

    /// Whether `who` may call it.
    pub fn allows(&self, who: ToolVisibility) -> bool {
        self.visibility.contains(&who)
    }
}

fn visibility(list: &[Value]) -> Vec<ToolVisibility> {
    let mut known = Vec::new();
    for entry in list.iter().filter_map(Value::as_str) {
        let who = match entry {
            "model" => ToolVisibility::Model,
            "app" => ToolVisibility::App,
            _ => continue,
        };
        if !known.contains(&who) {
            known.push(who);
        }
    }
    known
}

/// Whether `tool` may be called by `who`: a tool without UI metadata is visible to both.
pub fn visible_to(tool: &Tool, who: ToolVisibility) -> bool {
    ToolUi::of(tool).is_none_or(|ui| ui.allows(who))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(meta: Value) -> Tool {
        serde_json::from_value(json!({
            "name": "t", "inputSchema": { "type": "object" }, "_meta": meta
        }))
        .expect("a tool")
    }

    #[test]
    fn the_nested_resource_uri_wins_over_the_deprecated_flat_one() {
        let ui = ToolUi::of(&tool(json!({
            "ui": { "resourceUri": "ui://new/app" }, "ui/resourceUri": "ui://old/app"
        })))
        .expect("accepted");
        assert_eq!(ui.resource_uri.as_deref(), Some("ui://new/app"));
        let flat =
            ToolUi::of(&tool(json!({ "ui/resourceUri": "ui://old/app" }))).expect("accepted");
        assert_eq!(flat.resource_uri.as_deref(), Some("ui://old/app"));
    }

    #[test]
    fn only_ui_uris_count() {
        assert_eq!(
            ToolUi::of(&tool(
                json!({ "ui": { "resourceUri": "https://evil.example/app" } })
            )),
            None
        );
        assert_eq!(
            ToolUi::of(&tool(json!({ "ui/resourceUri": "file:///etc/passwd" }))),
            None
        );
    }

    #[test]
    fn visibility_defaults_to_model_and_app() {
        let ui =
            ToolUi::of(&tool(json!({ "ui": { "resourceUri": "ui://a/b" } }))).expect("accepted");
        assert!(ui.allows(ToolVisibility::Model) && ui.allows(ToolVisibility::App));
    }

    #[test]
    fn app_only_and_model_only_tools() {
        let app_only = tool(json!({ "ui": { "visibility": ["app"] } }));
        assert!(visible_to(&app_only, ToolVisibility::App));
        assert!(!visible_to(&app_only, ToolVisibility::Model));
        let model_only =
            tool(json!({ "ui": { "resourceUri": "ui://a/b", "visibility": ["model"] } }));
        assert!(!visible_to(&model_only, ToolVisibility::App));
        assert!(visible_to(&model_only, ToolVisibility::Model));
    }

    #[test]
    fn an_empty_list_hides_the_tool_from_both_and_unknown_entries_are_ignored() {
        let hidden = tool(json!({ "ui": { "visibility": [] } }));
        assert!(!visible_to(&hidden, ToolVisibility::App));
        assert!(!visible_to(&hidden, ToolVisibility::Model));
        let odd = ToolUi::of(&tool(json!({ "ui": { "visibility": ["app", "robot"] } })))
            .expect("accepted");
        assert_eq!(odd.visibility, vec![ToolVisibility::App]);
        let unknown = tool(json!({ "ui": { "visibility": ["robot"] } }));
        assert!(!visible_to(&unknown, ToolVisibility::App));
        assert!(!visible_to(&unknown, ToolVisibility::Model));
    }

    #[test]
    fn a_tool_without_meta_is_visible_to_both() {
        let plain: Tool =
            serde_json::from_value(json!({ "name": "t", "inputSchema": {} })).expect("accepted");
        assert!(
            visible_to(&plain, ToolVisibility::App) && visible_to(&plain, ToolVisibility::Model)
        );
    }
}
