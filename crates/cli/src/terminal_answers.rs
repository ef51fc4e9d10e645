//! Answers a server's elicitation requests at the terminal, when `gatehouse` runs on one: each
//! form field is asked in turn (Enter keeps the default or skips an optional field, `!cancel`
//! cancels), URL-mode requests show the URL and ask for consent, and the person confirms before
//! anything is sent. Without a terminal, everything goes to the host's handler, which declines.

use std::io::{BufRead, IsTerminal, Write};
use std::sync::{Arc, Mutex};

use crate::terminal_text::visible;
use gatehouse_host::ServerConfig;
use gatehouse_host::server_requests::HostHandler;
use gatehouse_mcp::error::RpcError;
use gatehouse_mcp::features::elicitation_form::{FieldKind, FormField, form_fields};
use gatehouse_mcp::peer::Handler;
use gatehouse_mcp::transport::BoxFuture;
use serde_json::{Map, Value, json};

/// How many times a field is asked again after an invalid answer.
const ATTEMPTS: usize = 3;

/// The terminal, shared so that two requests never ask at once.
static TERMINAL: Mutex<()> = Mutex::new(());

/// A server notification as a command receives it: method and params.
pub type Notice = (String, Option<Value>);

/// A handler that asks the person at the terminal.
pub struct TerminalAnswers {
    server: String,
    fallback: Arc<HostHandler>,
    /// Where notifications go, for a command that shows them (`watch`).
    notices: Option<tokio::sync::mpsc::UnboundedSender<Notice>>,
}

impl TerminalAnswers {
    /// Asks about `config`'s server; everything else is answered as the host does.
    pub fn new(config: &ServerConfig) -> Self {
        Self {
            fallback: Arc::new(HostHandler::for_config(config)),
            server: config.name.clone(),
            notices: None,
        }
    }

    /// The same, passing every notification to `notices` instead of the host's handler.
    pub fn with_notices(mut self, notices: tokio::sync::mpsc::UnboundedSender<Notice>) -> Self {
        self.notices = Some(notices);
        self
    }

    fn interactive() -> bool {
        std::io::stdin().is_terminal() && std::io::stderr().is_terminal()
    }
}

impl Handler for TerminalAnswers {
    fn on_request(
        &self,
        method: String,
        params: Option<Value>,
    ) -> BoxFuture<'static, Result<Value, RpcError>> {
        if method != "elicitation/create" || !Self::interactive() {
            return self.fallback.on_request(method, params);
        }
        let server = self.server.clone();
        Box::pin(async move {
            let params = params.unwrap_or_default();
            let asked = tokio::task::spawn_blocking(move || ask(&server, &params)).await;
            match asked {
                Ok(Ok(answer)) => Ok(answer),
                Ok(Err(e)) => {
                    Ok(json!({ "action": "cancel", "_meta": { "reason": e.to_string() } }))
                }
                Err(_) => Ok(json!({ "action": "cancel" })),
            }
        })
    }

    fn on_notification(&self, method: &str, params: Option<Value>) {
        match &self.notices {
            Some(notices) => {
                let _ = notices.send((method.to_owned(), params));
            }
            None => self.fallback.on_notification(method, params),
        }
    }
}

/// Asks at the terminal; an I/O error (a closed terminal) cancels.
fn ask(server: &str, params: &Value) -> std::io::Result<Value> {
    let _turn = TERMINAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut input = std::io::stdin().lock();
    let mut out = std::io::stderr().lock();
    let message = params
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("The server asks for input.");
    writeln!(out, "\n`{server}` asks: {}", visible(message))?;
    if params.get("mode").and_then(Value::as_str) == Some("url") {
        let url = params.get("url").and_then(Value::as_str).unwrap_or("");
        writeln!(out, "It wants you to open: {}", visible(url))?;
        let consent = read(
            &mut input,
            &mut out,
            "Open it yourself and continue? [y/N] ",
        )?;
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
        match ask_field(&mut input, &mut out, field)? {
            Answer::Value(value) => {
                content.insert(field.name.clone(), value);
            }
            Answer::Skip => {}
            Answer::Cancel => return Ok(json!({ "action": "cancel" })),
        }
    }
    let confirm = read(&mut input, &mut out, "Send these answers? [Y/n] ")?;
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
fn read(input: &mut impl BufRead, out: &mut impl Write, prompt: &str) -> std::io::Result<String> {
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
