//! A server's elicitation, asked at the terminal: each form field in turn (Enter keeps the
//! default or skips an optional field, `!cancel` cancels), and a URL shown whole with its site
//! and any warnings before the person agrees to open it. The person confirms before anything
//! is sent.

use std::io::{BufRead, Write};

use crate::terminal_text::visible;
use gatehouse_host::protocol::{FieldKind, FormField, form_fields};
use serde_json::{Map, Value, json};

/// How many times a field is asked again after an invalid answer.
const ATTEMPTS: usize = 3;

/// Puts one elicitation request (its `params`) to the person reading `out` and typing into
/// `input`; answers `{action, content?}` as the server will receive it.
pub fn ask_with(
    server: &str,
    params: &Value,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> std::io::Result<Value> {
    let message = params
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("The server asks for input.");
    writeln!(out, "\n`{server}` asks: {}", visible(message))?;
    if params.get("mode").and_then(Value::as_str) == Some("url") {
        let url = params.get("url").and_then(Value::as_str).unwrap_or("");
        writeln!(out, "It wants you to open: {}", visible(url))?;
        let (site, warnings) = gatehouse_host::approvals::site::describe(url);
        if !site.is_empty() {
            writeln!(out, "  site: {}", visible(&site).to_uppercase())?;
        }
        for warning in warnings {
            writeln!(out, "  WARNING: {warning}")?;
        }
        let consent = read(input, out, "Open it yourself and continue? [y/N] ")?;
        let action = if consent.eq_ignore_ascii_case("y") || consent.eq_ignore_ascii_case("yes") {
            "accept"
        } else {
            "decline"
        };
        return Ok(json!({ "action": action }));
    }
    writeln!(
        out,
        "(Enter keeps the default or skips an optional field; type !cancel to cancel.)"
    )?;
    let fields = form_fields(params.get("requestedSchema").unwrap_or(&Value::Null));
    let mut content = Map::new();
    for field in &fields {
        match ask_field(input, out, field)? {
            Answer::Value(value) => {
                content.insert(field.name.clone(), value);
            }
            Answer::Skip => {}
            Answer::Cancel => return Ok(json!({ "action": "cancel" })),
        }
    }
    let confirm = read(input, out, "Send these answers? [Y/n] ")?;
    if confirm.eq_ignore_ascii_case("n") || confirm.eq_ignore_ascii_case("no") {
        return Ok(json!({ "action": "decline" }));
    }
    Ok(json!({ "action": "accept", "content": content }))
}

enum Answer {
    Value(Value),
    Skip,
    Cancel,
}

fn ask_field(
    input: &mut impl BufRead,
    out: &mut impl Write,
    field: &FormField,
) -> std::io::Result<Answer> {
    writeln!(
        out,
        "\n{}{}",
        visible(&field.title),
        if field.required { " (required)" } else { "" }
    )?;
    if let Some(description) = &field.description {
        writeln!(out, "  {}", visible(description))?;
    }
    if let FieldKind::Choice { options } | FieldKind::Choices { options, .. } = &field.kind {
        for (i, (_, label)) in options.iter().enumerate() {
            writeln!(out, "  {}. {}", i + 1, visible(label))?;
        }
    }
    let hint = match (&field.kind, &field.default) {
        (_, Some(default)) => format!(" [{}]", default_text(default)),
        (FieldKind::Boolean, None) => " [y/n]".to_owned(),
        _ => String::new(),
    };
    for _ in 0..ATTEMPTS {
        let line = read(input, out, &format!("> {}{hint}: ", field.name))?;
        if line == "!cancel" {
            return Ok(Answer::Cancel);
        }
        if line.is_empty() {
            match (&field.default, field.required) {
                (Some(default), _) => return Ok(Answer::Value(default.clone())),
                (None, false) => return Ok(Answer::Skip),
                (None, true) => {
                    writeln!(out, "  this field is required")?;
                    continue;
                }
            }
        }
        match field.parse_answer(&line) {
            Ok(value) => return Ok(Answer::Value(value)),
            Err(problem) => writeln!(out, "  {problem}")?,
        }
    }
    writeln!(out, "  no valid answer; cancelling")?;
    Ok(Answer::Cancel)
}

fn default_text(default: &Value) -> String {
    match default {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Prompts and reads one trimmed line; end of input is an error (the terminal went away).
pub fn read(
    input: &mut impl BufRead,
    out: &mut impl Write,
    prompt: &str,
) -> std::io::Result<String> {
    write!(out, "{prompt}")?;
    out.flush()?;
    let mut line = String::new();
    if input.read_line(&mut line)? == 0 {
        return Err(std::io::Error::new(
            std::io::ErrorKind::UnexpectedEof,
            "the terminal closed",
        ));
    }
    Ok(line.trim().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the person saw and what was answered, for `typed` lines of input.
    fn put(params: Value, typed: &str) -> (String, Value) {
        let mut out = Vec::new();
        let answer = ask_with("srv", &params, &mut typed.as_bytes(), &mut out)
            .unwrap_or_else(|e| json!({ "error": e.to_string() }));
        (String::from_utf8_lossy(&out).into_owned(), answer)
    }

    #[test]
    fn a_url_is_shown_whole_and_opened_only_with_consent() {
        let url = "https://auth.example.test/connect?session=42";
        let params = json!({"mode": "url", "message": "Sign in", "url": url, "elicitationId": "e"});
        let (shown, declined) = put(params.clone(), "\n");
        assert!(
            shown.contains(url),
            "the full URL is shown before any consent: {shown}"
        );
        assert_eq!(
            declined["action"], "decline",
            "no consent by default: nothing is opened"
        );
        assert_eq!(put(params, "yes\n").1["action"], "accept");
    }

    #[test]
    fn a_form_can_be_cancelled_at_any_field_or_declined_at_the_end() {
        let schema = json!({"type": "object", "properties": {
            "name": {"type": "string", "title": "Name"},
            "age": {"type": "integer", "title": "Age"}}, "required": ["name"]});
        let params = json!({"message": "Who are you?", "requestedSchema": schema});
        let (shown, cancelled) = put(params.clone(), "Ada\n!cancel\n");
        assert!(shown.contains("!cancel"), "the way out is offered: {shown}");
        assert_eq!(cancelled["action"], "cancel");
        assert_eq!(put(params.clone(), "Ada\n36\nn\n").1["action"], "decline");
        let (_, sent) = put(params, "Ada\n36\n\n");
        assert_eq!(
            sent,
            json!({"action": "accept", "content": {"name": "Ada", "age": 36}})
        );
    }
}
