//! The terminal's question about a tool call a rule asks about: the server and the tool, its
//! hints, the arguments, why it is asked and what changed in it; then once, session or time (a
//! grant covering these arguments or any, the question's default first), always (only where
//! the engine offers it), edit the arguments, or deny (the default) with a reason.

use std::io::{BufRead, Write};

use gatehouse_host::approvals::{Answer, PendingApproval, Question, Scope};
use gatehouse_host::policy::Covers;
use serde_json::Value;

use crate::terminal_form::read;
use crate::terminal_text::visible;

/// Asks about a tool call.
pub(crate) fn ask(
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
        default_covers,
        always_offered,
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
    let prompt = if *always_offered {
        "Allow? [o]nce, [s]ession, [t]ime, [a]lways (any arguments), [e]dit arguments, [d]eny (default): "
    } else {
        "Allow? [o]nce, [s]ession, [t]ime, [e]dit arguments, [d]eny (default): "
    };
    let line = read(input, out, prompt)?;
    let allow = |scope| Answer::Allow {
        scope,
        arguments: None,
        covers: None,
    };
    Ok(match line.to_lowercase().as_str() {
        "o" | "once" => allow(Scope::Once),
        "s" | "session" => grant(Scope::Session, *default_covers, input, out)?,
        "a" | "always" if *always_offered => allow(Scope::Always),
        "t" | "time" => {
            let minutes = read(input, out, "For how many minutes? [10] ")?;
            let minutes = if minutes.is_empty() {
                10
            } else {
                minutes.parse().unwrap_or(0)
            };
            grant(Scope::For { minutes }, *default_covers, input, out)?
        }
        "e" | "edit" => {
            let text = read(input, out, "Arguments (one line of JSON): ")?;
            match serde_json::from_str::<Value>(&text) {
                Ok(edited) => Answer::Allow {
                    scope: Scope::Once,
                    arguments: Some(edited),
                    covers: None,
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

/// An "allow" that leaves a grant: for `scope`, covering what the person says.
fn grant(
    scope: Scope,
    default: Covers,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> std::io::Result<Answer> {
    Ok(Answer::Allow {
        scope,
        arguments: None,
        covers: Some(covers(default, input, out)?),
    })
}

/// Whether a grant covers these arguments only or any, the question's default first.
fn covers(
    default: Covers,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> std::io::Result<Covers> {
    let prompt = match default {
        Covers::These => "For [t]hese arguments only (default), or [a]ny arguments? ",
        Covers::Any => "For [t]hese arguments only, or [a]ny arguments (default)? ",
    };
    Ok(match read(input, out, prompt)?.to_lowercase().as_str() {
        "t" | "these" => Covers::These,
        "a" | "any" => Covers::Any,
        _ => default,
    })
}
