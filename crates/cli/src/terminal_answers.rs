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
        if let Err(refused) = gatehouse_mcp::features::elicitation::check_mode(params.as_ref()) {
            return Box::pin(async move { Err(refused) });
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
    ask_with(
        server,
        params,
        &mut std::io::stdin().lock(),
        &mut std::io::stderr().lock(),
    )
}

/// Puts one elicitation request to the person reading `out` and typing into `input`.
fn ask_with(
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
        for line in describe_site(url) {
            writeln!(out, "  {line}")?;
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

/// What the person should know about where a URL leads (2025-11-25 client/elicitation, "Safe
/// URL Handling": highlight the domain, warn about Punycode and other suspicious forms). The
/// URL is only parsed here, never fetched.
fn describe_site(url: &str) -> Vec<String> {
    let Ok(parsed) = url::Url::parse(url) else {
        return vec!["WARNING: this is not a valid URL; do not open it".into()];
    };
    let mut lines = Vec::new();
    match parsed.host_str() {
        Some(host) => lines.push(format!("site: {}", visible(host).to_uppercase())),
        None => lines.push("WARNING: this URL names no site".into()),
    }
    if parsed.scheme() != "https" {
        lines.push(format!(
            "WARNING: it is not https but `{}`",
            visible(parsed.scheme())
        ));
    }
    if parsed
        .host_str()
        .is_some_and(|h| h.split('.').any(|label| label.starts_with("xn--")))
    {
        lines.push(
            "WARNING: the site name is written in Punycode (xn--) and may imitate another one"
                .into(),
        );
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        lines.push("WARNING: the URL carries a user name, which can disguise the real site".into());
    }
    lines
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
    fn the_site_is_highlighted_and_suspicious_urls_are_flagged() {
        assert_eq!(
            describe_site("https://auth.example.test/x"),
            ["site: AUTH.EXAMPLE.TEST"]
        );
        let lookalike = describe_site("https://xn--pple-43d.com/login");
        assert!(
            lookalike.iter().any(|l| l.contains("Punycode")),
            "a Punycode host may imitate another: {lookalike:?}"
        );
        let disguised = describe_site("http://bank.example@evil.test/");
        assert!(
            disguised.contains(&"site: EVIL.TEST".to_owned()),
            "{disguised:?}"
        );
        assert!(disguised.iter().any(|l| l.contains("not https")));
        assert!(disguised.iter().any(|l| l.contains("user name")));
        assert!(describe_site("not a url")[0].starts_with("WARNING"));
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
