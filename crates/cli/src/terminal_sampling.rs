//! A server's sampling request put to the person at the terminal: the conversation it would
//! send a model (system prompt, messages, limits, model preferences, tools offered), and a reply
//! the person types, or declines.

use std::io::{BufRead, Write};

use gatehouse_host::approvals::Answer;
use serde_json::Value;

use crate::terminal_form::read;
use crate::terminal_text::visible;

/// Shows the sampling request `params` of `server` and reads the person's reply.
pub fn ask(
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
