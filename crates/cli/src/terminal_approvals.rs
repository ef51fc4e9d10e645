//! The person at the terminal answers what the host asks: a tool call a rule asks about
//! (allow once, for the session, for some minutes, always, with edited arguments, or deny with
//! a reason), a server's sampling request (the person types the reply, or declines), and a
//! server's elicitation ([`crate::terminal_form`]). Without a terminal (stdin and stderr not
//! both terminals) nobody is there to ask, and the host refuses such requests at once, naming
//! the rule that would allow them.

use std::io::{BufRead, IsTerminal, Write};
use std::sync::Mutex;

use gatehouse_host::approvals::{Answer, Approvals, PendingApproval, Question, Scope};
use gatehouse_host::{EngineEvent, Host};
use serde_json::{Value, json};
use tokio::sync::broadcast::error::RecvError;
use tokio::task::JoinHandle;

use crate::terminal_form::{ask_with, read};
use crate::terminal_text::visible;

/// The terminal, shared so that two requests never ask at once.
static TERMINAL: Mutex<()> = Mutex::new(());

/// How many times an answer the host refuses (edited arguments that do not match) is asked
/// again.
const ATTEMPTS: usize = 3;

/// The task answering at the terminal; stopped when dropped.
pub struct Attending(JoinHandle<()>);

impl Drop for Attending {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Starts answering at the terminal, when there is one.
pub fn attend(host: &Host) -> Option<Attending> {
    if !(std::io::stdin().is_terminal() && std::io::stderr().is_terminal()) {
        return None;
    }
    host.set_attended(true);
    let approvals = host.gate().approvals().clone();
    let mut events = host.subscribe();
    Some(Attending(tokio::spawn(async move {
        loop {
            match events.recv().await {
                Ok(EngineEvent::ApprovalAsked(pending)) => {
                    let approvals = approvals.clone();
                    let asked = tokio::task::spawn_blocking(move || {
                        put(&approvals, &pending);
                    })
                    .await;
                    if let Err(e) = asked {
                        tracing::warn!("the terminal prompt failed: {e}");
                    }
                }
                Ok(_) | Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return,
            }
        }
    })))
}

/// Puts one request to the person, asking again while the host refuses the answer.
fn put(approvals: &Approvals, pending: &PendingApproval) {
    let _turn = TERMINAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let (mut input, mut out) = (std::io::stdin().lock(), std::io::stderr().lock());
    for _ in 0..ATTEMPTS {
        let answer = match ask(pending, &mut input, &mut out) {
            Ok(answer) => answer,
            // The terminal went away: the request waits out its timeout elsewhere, or ends.
            Err(_) => Answer::Deny {
                reason: Some("the terminal closed".into()),
            },
        };
        match approvals.answer(&pending.id, answer) {
            Ok(()) => return,
            Err(refused) if refused.code() == "validation" => {
                let _ = writeln!(out, "  {refused}");
            }
            // Answered or withdrawn meanwhile: nothing more to ask.
            Err(_) => return,
        }
    }
    let _ = approvals.answer(
        &pending.id,
        Answer::Deny {
            reason: Some("no valid answer at the terminal".into()),
        },
    );
}

/// Asks about one request.
fn ask(
    pending: &PendingApproval,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> std::io::Result<Answer> {
    let server = visible(&pending.server).into_owned();
    match &pending.question {
        Question::ToolCall { .. } => ask_tool_call(pending, input, out),
        Question::Sampling { params } => ask_sampling(&server, params, input, out),
        Question::Elicitation {
            message,
            requested_schema,
        } => {
            let params = json!({ "message": message, "requestedSchema": requested_schema });
            Ok(elicited(ask_with(&server, &params, input, out)?))
        }
        Question::OpenUrl { message, url, .. } => {
            let params = json!({ "mode": "url", "message": message, "url": url });
            Ok(elicited(ask_with(&server, &params, input, out)?))
        }
        Question::Request { method, detail } => {
            writeln!(
                out,
                "\n`{server}`: {} ({})\n  {}",
                visible(method),
                pending.source.as_str(),
                visible(&detail.to_string())
            )?;
            writeln!(out, "  why: {}", visible(&pending.reason))?;
            let line = read(input, out, "Allow it? [y/N] ")?;
            Ok(if matches!(line.to_lowercase().as_str(), "y" | "yes") {
                Answer::Allow {
                    scope: Scope::Once,
                    arguments: None,
                }
            } else {
                Answer::Deny { reason: None }
            })
        }
    }
}

/// An elicitation's `{action, content}` as an answer.
fn elicited(result: Value) -> Answer {
    match result.get("action").and_then(Value::as_str) {
        Some("accept") => Answer::Accept {
            content: result.get("content").cloned(),
        },
        Some("cancel") => Answer::Cancel,
        _ => Answer::Deny { reason: None },
    }
}

fn ask_tool_call(
    pending: &PendingApproval,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> std::io::Result<Answer> {
    let Question::ToolCall {
        tool,
        title,
        description,
        annotations,
        arguments,
        changes,
        ..
    } = &pending.question
    else {
        return Ok(Answer::Deny { reason: None });
    };
    writeln!(
        out,
        "\n`{}` wants to call `{}`{} (source: {})",
        visible(&pending.server),
        visible(tool),
        title
            .as_deref()
            .map(|t| format!(" — {}", visible(t)))
            .unwrap_or_default(),
        pending.source.as_str()
    )?;
    if let Some(description) = description {
        writeln!(out, "  {}", visible(description))?;
    }
    let hints: Vec<&str> = [
        "readOnlyHint",
        "destructiveHint",
        "idempotentHint",
        "openWorldHint",
    ]
    .into_iter()
    .filter(|hint| annotations.get(*hint).and_then(Value::as_bool) == Some(true))
    .collect();
    if !hints.is_empty() {
        writeln!(out, "  the server says (hints): {}", hints.join(", "))?;
    }
    writeln!(out, "  arguments: {}", visible(&arguments.to_string()))?;
    writeln!(out, "  why you are asked: {}", visible(&pending.reason))?;
    for change in changes {
        writeln!(
            out,
            "  CHANGED {}: {} → {}",
            visible(&change.field),
            visible(&change.before.to_string()),
            visible(&change.after.to_string())
        )?;
    }
    let line = read(
        input,
        out,
        "Allow? [o]nce, [s]ession, [t]ime, [a]lways, [e]dit arguments, [d]eny (default): ",
    )?;
    let allow = |scope| Answer::Allow {
        scope,
        arguments: None,
    };
    Ok(match line.to_lowercase().as_str() {
        "o" | "once" => allow(Scope::Once),
        "s" | "session" => allow(Scope::Session),
        "a" | "always" => allow(Scope::Always),
        "t" | "time" => {
            let minutes = read(input, out, "For how many minutes? [10] ")?;
            let minutes = if minutes.is_empty() {
                10
            } else {
                minutes.parse().unwrap_or(0)
            };
            allow(Scope::For { minutes })
        }
        "e" | "edit" => {
            let text = read(input, out, "Arguments (one line of JSON): ")?;
            match serde_json::from_str::<Value>(&text) {
                Ok(edited) => Answer::Allow {
                    scope: Scope::Once,
                    arguments: Some(edited),
                },
                Err(e) => {
                    writeln!(out, "  that is not JSON ({e}); the call is denied")?;
                    Answer::Deny {
                        reason: Some("the edited arguments were not JSON".into()),
                    }
                }
            }
        }
        _ => {
            let reason = read(input, out, "Reason (optional): ")?;
            Answer::Deny {
                reason: (!reason.is_empty()).then_some(reason),
            }
        }
    })
}

fn ask_sampling(
    server: &str,
    params: &Value,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> std::io::Result<Answer> {
    writeln!(out, "\n`{server}` asks for a model's reply (sampling).")?;
    if let Some(system) = params.get("systemPrompt").and_then(Value::as_str) {
        writeln!(out, "  system prompt: {}", visible(system))?;
    }
    for message in params
        .get("messages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let role = message.get("role").and_then(Value::as_str).unwrap_or("?");
        let content = message.get("content").cloned().unwrap_or(Value::Null);
        let text = match content.get("text").and_then(Value::as_str) {
            Some(text) => text.to_owned(),
            None => content.to_string(),
        };
        writeln!(out, "  {}: {}", visible(role), visible(&text))?;
    }
    if let Some(max) = params.get("maxTokens") {
        writeln!(out, "  maxTokens: {max}")?;
    }
    if let Some(preferences) = params.get("modelPreferences") {
        writeln!(
            out,
            "  model preferences: {}",
            visible(&preferences.to_string())
        )?;
    }
    if let Some(tools) = params.get("tools").and_then(Value::as_array) {
        let names: Vec<&str> = tools
            .iter()
            .filter_map(|t| t.get("name").and_then(Value::as_str))
            .collect();
        writeln!(out, "  tools offered: {}", visible(&names.join(", ")))?;
    }
    let reply = read(
        input,
        out,
        "Type the reply (one line), or Enter to decline: ",
    )?;
    Ok(if reply.is_empty() {
        Answer::Deny { reason: None }
    } else {
        Answer::Respond { text: reply }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use gatehouse_host::Source;

    fn pending(question: Question) -> PendingApproval {
        PendingApproval {
            id: "p".into(),
            server: "fs".into(),
            server_id: "s".into(),
            source: Source::App,
            reason: "rule r-1 says ask".into(),
            rule: Some("r-1".into()),
            asked_at_ms: 0.0,
            expires_at_ms: 0.0,
            question,
        }
    }

    fn tool_call() -> Question {
        Question::ToolCall {
            tool: "write".into(),
            title: Some("Write a file".into()),
            description: Some("Writes text".into()),
            annotations: json!({"destructiveHint": true}),
            arguments: json!({"path": "/tmp/a"}),
            input_schema: json!({"type": "object"}),
            definition_hash: None,
            changes: vec![gatehouse_host::approvals::DefinitionChange {
                field: "description".into(),
                before: json!("Reads"),
                after: json!("Writes text"),
            }],
        }
    }

    fn answer(question: Question, typed: &str) -> (String, Answer) {
        let mut out = Vec::new();
        let answer = ask(&pending(question), &mut typed.as_bytes(), &mut out).expect("asked");
        (String::from_utf8_lossy(&out).into_owned(), answer)
    }

    #[test]
    fn a_tool_call_shows_what_it_does_and_takes_each_answer() {
        let (shown, once) = answer(tool_call(), "o\n");
        for part in [
            "`write`",
            "destructiveHint",
            "/tmp/a",
            "rule r-1",
            "CHANGED description",
        ] {
            assert!(shown.contains(part), "{part} is shown: {shown}");
        }
        assert_eq!(
            once,
            Answer::Allow {
                scope: Scope::Once,
                arguments: None
            }
        );
        assert_eq!(
            answer(tool_call(), "t\n30\n").1,
            Answer::Allow {
                scope: Scope::For { minutes: 30 },
                arguments: None
            }
        );
        assert_eq!(
            answer(tool_call(), "e\n{\"path\": \"/tmp/b\"}\n").1,
            Answer::Allow {
                scope: Scope::Once,
                arguments: Some(json!({"path": "/tmp/b"}))
            }
        );
        assert_eq!(
            answer(tool_call(), "\nnot today\n").1,
            Answer::Deny {
                reason: Some("not today".into())
            },
            "deny is the default"
        );
    }

    #[test]
    fn a_sampling_request_shows_the_messages_and_takes_the_typed_reply() {
        let params = json!({"systemPrompt": "Be brief", "maxTokens": 10,
            "messages": [{"role": "user", "content": {"type": "text", "text": "Say hi"}}]});
        let question = || Question::Sampling {
            params: params.clone(),
        };
        let (shown, reply) = answer(question(), "hello there\n");
        assert!(
            shown.contains("Be brief") && shown.contains("user: Say hi"),
            "{shown}"
        );
        assert_eq!(
            reply,
            Answer::Respond {
                text: "hello there".into()
            }
        );
        assert_eq!(answer(question(), "\n").1, Answer::Deny { reason: None });
    }
}
