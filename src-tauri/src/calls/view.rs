//! What crosses IPC about a tool call: the events streamed while it runs and its result.

use gatehouse_host::protocol::{CallToolResult, Progress, Task};
use serde::Serialize;
use serde_json::Value;

/// Something that happened while a call runs.
#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum CallEvent {
    /// The server reported progress; `total` when it knows it.
    Progress {
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    },
    /// The call runs as a task, and the task's status changed.
    Task {
        #[serde(rename = "taskId")]
        task_id: String,
        /// `working`, `input_required`, `completed`, `failed` or `cancelled`.
        status: String,
        #[serde(rename = "statusMessage")]
        status_message: Option<String>,
    },
}

impl From<Progress> for CallEvent {
    fn from(update: Progress) -> Self {
        CallEvent::Progress {
            progress: update.progress,
            total: update.total,
            message: update.message,
        }
    }
}

impl From<Task> for CallEvent {
    fn from(task: Task) -> Self {
        CallEvent::Task {
            task_id: task.task_id,
            status: task.status,
            status_message: task.status_message,
        }
    }
}

/// A tool's result as the window shows it.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct CallResultView {
    /// The content blocks as MCP spells them (`type`: `text`, `image`, `audio`,
    /// `resource_link`, `resource`, or one unknown to Gatehouse, kept as sent).
    pub content: Vec<Value>,
    pub structured_content: Option<Value>,
    /// The tool itself failed.
    pub is_error: bool,
    /// Why `structuredContent` does not match the tool's output schema, if it does not.
    pub schema_problem: Option<String>,
    /// The call was cancelled before it answered; nothing else is set.
    pub cancelled: bool,
}

impl CallResultView {
    pub fn cancelled() -> Self {
        Self {
            content: Vec::new(),
            structured_content: None,
            is_error: false,
            schema_problem: None,
            cancelled: true,
        }
    }
}

impl From<CallToolResult> for CallResultView {
    fn from(result: CallToolResult) -> Self {
        let content = result
            .content
            .into_iter()
            .map(|block| serde_json::to_value(block).unwrap_or(Value::Null))
            .collect();
        Self {
            content,
            structured_content: result.structured_content,
            is_error: result.is_error,
            schema_problem: result.schema_problem,
            cancelled: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gatehouse_host::protocol::Content;
    use serde_json::json;

    #[test]
    fn content_blocks_cross_as_mcp_spells_them() {
        let blocks = json!([
            {"type": "text", "text": "hi"},
            {"type": "image", "data": "AA==", "mimeType": "image/png"},
            {"type": "hologram", "data": 1}
        ]);
        let result = CallToolResult {
            content: Content::parse_all(Some(blocks.clone())),
            structured_content: Some(json!({"n": 1})),
            is_error: true,
            schema_problem: Some("missing `m`".into()),
            extra: Default::default(),
        };
        let view = CallResultView::from(result);
        assert_eq!(
            Value::Array(view.content.clone()),
            blocks,
            "the window reads blocks in the spec's shape, unknown ones as sent"
        );
        let wire = serde_json::to_value(&view).expect("serialize");
        assert_eq!(wire["isError"], true);
        assert_eq!(wire["schemaProblem"], "missing `m`");
        assert_eq!(wire["structuredContent"], json!({"n": 1}));
        assert_eq!(wire["cancelled"], false);
    }

    #[test]
    fn events_are_tagged_by_kind() {
        let progress = CallEvent::from(Progress {
            progress: 2.0,
            total: Some(10.0),
            message: None,
        });
        assert_eq!(
            serde_json::to_value(progress).expect("serialize"),
            json!({"kind": "progress", "progress": 2.0, "total": 10.0, "message": null})
        );
    }
}
