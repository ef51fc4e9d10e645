//! `tools/call` (2025-11-25 server/tools): progress, a timeout that progress resets and an
//! overall cap on the wait, `isError`
//! kept apart from protocol errors, and `structuredContent` checked against the tool's
//! `outputSchema` with a JSON Schema validator (2020-12 unless the schema's `$schema` says
//! otherwise), built once per definition and within limits by `output_schema`. A mismatch, or a
//! schema too big to run, is reported on the result, never silently dropped.
//!
//! In the 2026-07-28 era a call whose response stream broke is sent again only for a tool
//! annotated `readOnlyHint` or `idempotentHint`: a broken stream leaves it unknown whether the
//! tool ran, so a tool with side effects is never re-issued. A call refused with
//! `HeaderMismatch` lists the tools again and is retried once (`param_headers`).

use std::time::Duration;

use serde_json::{Map, Value, json};
use tokio::sync::mpsc;

use crate::client::Client;
use crate::content::Content;
use crate::error::{McpError, Result};
use crate::features::task::TaskSupport;
use crate::peer::{DEFAULT_REISSUE, Progress, RequestOptions};
use crate::types::Tool;

/// How to wait for a tool call.
#[derive(Debug, Clone)]
pub struct CallOptions {
    /// Time allowed between progress updates (or for the whole call without any).
    pub timeout: Duration,
    /// A cap on the whole call.
    pub max_total: Option<Duration>,
    /// Where progress updates go. A reader that falls behind skips updates but always gets
    /// the latest; [`crate::updates::UPDATE_BUFFER`] is a fitting capacity.
    pub progress: Option<mpsc::Sender<Progress>>,
    /// Where status updates go when the tool runs as a task (the same way as progress).
    pub task_status: Option<mpsc::Sender<crate::features::task::Task>>,
    /// What a 2026-07-28 server's task handle does to the call (the tasks extension).
    pub tasks: TaskHandling,
    /// Client capabilities (`sampling`, `elicitation`, …) left out of what this call declares
    /// to a 2026-07-28 server, which then treats the client as one without them (2026-07-28
    /// basic/lifecycle, "Missing Required Capabilities"). Legacy servers are not concerned:
    /// their capabilities were agreed once, at `initialize`.
    pub withheld: Vec<String>,
    /// Answers sent with the first request of the call to a 2026-07-28 server, before it asked
    /// for any (a caller's own, passed on; the server ignores what it does not recognise and
    /// asks for what is missing: 2026-07-28 basic/patterns/mrtr). Legacy servers never get them.
    pub input_responses: Option<Map<String, Value>>,
}

/// What a call does with the tasks extension (`io.modelcontextprotocol/tasks`) of a 2026-07-28
/// server. Legacy servers are not concerned.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum TaskHandling {
    /// The extension is declared and a task handle followed to its end: one logical call.
    #[default]
    Follow,
    /// The extension is declared and a task handle returned as it came
    /// ([`CallToolResult::is_task`]): the caller polls the task itself.
    Return,
    /// The extension is not declared for this call: the server answers as to a client without
    /// it (a plain result, or `MissingRequiredClientCapability` for a tool that must be a task).
    Undeclared,
}

impl Default for CallOptions {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(60),
            max_total: Some(Duration::from_secs(600)),
            progress: None,
            task_status: None,
            tasks: TaskHandling::Follow,
            withheld: Vec::new(),
            input_responses: None,
        }
    }
}

/// What a tool returned.
#[derive(Debug, Clone, PartialEq)]
pub struct CallToolResult {
    pub content: Vec<Content>,
    pub structured_content: Option<Value>,
    /// The tool itself failed (as opposed to the protocol).
    pub is_error: bool,
    /// Why `structuredContent` does not match the tool's `outputSchema`, if it does not.
    pub schema_problem: Option<String>,
    /// Everything else in the result, `_meta` included; the whole of a task handle
    /// ([`CallToolResult::is_task`]).
    pub extra: Map<String, Value>,
}

impl CallToolResult {
    /// Parses a result, checking it against the tool's `outputSchema` when known (off the
    /// async runtime).
    pub async fn parse(raw: Value, tool: Option<&Tool>) -> CallToolResult {
        let mut fields = match raw {
            Value::Object(map) => map,
            other => Map::from_iter([(
                "content".to_owned(),
                json!([{"type": "text", "text": other.to_string()}]),
            )]),
        };
        let content = Content::parse_all(fields.remove("content"));
        let structured_content = fields.remove("structuredContent");
        let is_error = fields
            .remove("isError")
            .and_then(|v| v.as_bool())
            .unwrap_or(false);
        let schema_problem = match tool {
            Some(tool) => check_output(tool, structured_content.as_ref(), is_error).await,
            None => None,
        };
        CallToolResult {
            content,
            structured_content,
            is_error,
            schema_problem,
            extra: fields,
        }
    }

    /// Whether this is the server's `CreateTaskResult`, as it came, in [`Self::extra`]: the call
    /// asked for it ([`TaskHandling::Return`]) and the server made the call a task.
    pub fn is_task(&self) -> bool {
        self.content.is_empty()
            && self.extra.get("resultType").and_then(Value::as_str) == Some("task")
    }
}

/// Checks structured output against the tool's declared `outputSchema`, off the async runtime
/// and within the schema limits (`output_schema`).
pub async fn check_output(
    tool: &Tool,
    structured: Option<&Value>,
    is_error: bool,
) -> Option<String> {
    let schema = tool.extra.get("outputSchema")?;
    if is_error {
        return None;
    }
    let Some(structured) = structured else {
        return Some(format!(
            "`{}` declares an outputSchema but returned no structuredContent",
            tool.name
        ));
    };
    crate::features::output_schema::shared()
        .check_off_runtime(&tool.name, schema, structured)
        .await
}

/// Whether the tool declares that calling it again has no further effect
/// (`annotations.readOnlyHint` or `annotations.idempotentHint`).
fn safe_to_repeat(tool: &Tool) -> bool {
    let hint = |name: &str| {
        tool.extra
            .get("annotations")
            .and_then(|a| a.get(name))
            .and_then(Value::as_bool)
            == Some(true)
    };
    hint("readOnlyHint") || hint("idempotentHint")
}

impl Client {
    /// Calls a tool. A tool-level failure is `Ok` with `is_error`; a protocol failure is `Err`.
    pub async fn call_tool(
        &self,
        name: &str,
        arguments: Option<Value>,
        options: CallOptions,
    ) -> Result<CallToolResult> {
        self.require_capability("tools", "tools")?;
        // A tool that requires task augmentation runs as a task, and still looks like one call
        // to the caller (2025-11-25 tasks, "Tool-Level Negotiation").
        let tool = self.cached_tool(name);
        if let Some(tool) = tool.as_deref()
            && TaskSupport::of(tool) == TaskSupport::Required
            && self.can_run_as_task(tool)
        {
            let timeout = options.max_total.unwrap_or(options.timeout);
            return self
                .run_tool_task(name, arguments, options.task_status, timeout)
                .await;
        }
        let mut params = Map::new();
        params.insert("name".into(), json!(name));
        if let Some(arguments) = arguments {
            params.insert("arguments".into(), arguments);
        }
        if let Some(responses) = &options.input_responses
            && self.peer().is_modern()
        {
            params.insert("inputResponses".into(), Value::Object(responses.clone()));
        }
        let undeclared = options.tasks == TaskHandling::Undeclared;
        if (undeclared || !options.withheld.is_empty()) && self.peer().is_modern() {
            // The caller's own `_meta` keys win over the stamped ones (`Peer`).
            let mut declared = if undeclared {
                self.handler_capabilities().clone()
            } else {
                self.declared_capabilities()
            };
            for capability in &options.withheld {
                declared.remove(capability);
            }
            params.insert(
                "_meta".into(),
                json!({ crate::era::META_CLIENT_CAPABILITIES: declared }),
            );
        }
        let request = |tool: Option<&Tool>| -> Result<RequestOptions> {
            Ok(RequestOptions {
                timeout: options.timeout,
                reset_timeout_on_progress: true,
                max_total: options.max_total,
                progress: options.progress.clone(),
                headers: self.parameter_headers(name, params.get("arguments"))?,
                // A broken stream leaves it unknown whether the tool ran; only a tool that says
                // running it twice is harmless is sent again.
                reissue: if tool.is_some_and(safe_to_repeat) {
                    DEFAULT_REISSUE
                } else {
                    0
                },
            })
        };
        let first = request(tool.as_deref())?;
        let mut sent = self
            .request_completing_input("tools/call", params.clone(), first)
            .await;
        // The server refused the mirrored headers, before running anything: the tool's
        // definition may have changed, so it is listed again and the call retried once with
        // the headers it now asks for (2026-07-28 transports/streamable-http, "Client
        // Behavior").
        if sent.as_ref().is_err_and(McpError::is_header_mismatch) {
            tracing::info!("`{name}` was refused for its headers; listing the tools again");
            self.peer().cache().invalidate("tools/list");
            self.list_tools().await?;
            let retry = request(self.cached_tool(name).as_deref())?;
            sent = self
                .request_completing_input("tools/call", params, retry)
                .await;
        }
        let raw = sent.map_err(|e| {
            if e.is_broken_stream() {
                McpError::Transport {
                    message: format!(
                        "{e}; `{name}` may or may not have run, so it was not run again"
                    ),
                }
            } else {
                e
            }
        })?;
        if raw.get("resultType").and_then(Value::as_str) == Some("task") {
            if options.tasks == TaskHandling::Return {
                let Value::Object(handle) = raw else {
                    return Err(McpError::InvalidResponse {
                        method: "tools/call".into(),
                        message: "a task handle must be an object".into(),
                    });
                };
                return Ok(CallToolResult {
                    content: Vec::new(),
                    structured_content: None,
                    is_error: false,
                    schema_problem: None,
                    extra: handle,
                });
            }
            return self
                .follow_task(name, raw, options.task_status, options.max_total)
                .await;
        }
        Ok(CallToolResult::parse(raw, self.cached_tool(name).as_deref()).await)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(output_schema: Option<Value>) -> Tool {
        let mut raw = json!({"name": "t", "inputSchema": {"type": "object"}});
        if let Some(schema) = output_schema {
            raw["outputSchema"] = schema;
        }
        serde_json::from_value(raw).expect("tool")
    }

    #[tokio::test]
    async fn reports_structured_output_that_breaks_the_schema() {
        let schema =
            json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
        let t = tool(Some(schema));
        let good = CallToolResult::parse(
            json!({"content": [], "structuredContent": {"n": 1}}),
            Some(&t),
        )
        .await;
        assert_eq!(good.schema_problem, None);
        let bad = CallToolResult::parse(
            json!({"content": [], "structuredContent": {"n": "x"}}),
            Some(&t),
        )
        .await;
        assert!(
            bad.schema_problem.is_some_and(|p| p.contains("/n")),
            "the mismatch names the field"
        );
        let missing = CallToolResult::parse(json!({"content": []}), Some(&t)).await;
        assert!(
            missing
                .schema_problem
                .is_some_and(|p| p.contains("no structuredContent"))
        );
        let failed = CallToolResult::parse(json!({"content": [], "isError": true}), Some(&t)).await;
        assert!(
            failed.is_error && failed.schema_problem.is_none(),
            "an error result needs no structure"
        );
    }

    #[tokio::test]
    async fn honours_the_schema_dialect() {
        // Draft 4 has `exclusiveMaximum` as a boolean; 2020-12 as a number.
        let draft4 = json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "number", "maximum": 5, "exclusiveMaximum": true});
        let t = tool(Some(draft4));
        let at_limit =
            CallToolResult::parse(json!({"content": [], "structuredContent": 5}), Some(&t)).await;
        assert!(
            at_limit.schema_problem.is_some(),
            "draft-04 exclusiveMaximum: true excludes 5"
        );
    }
}
