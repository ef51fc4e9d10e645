//! `gatehouse info <server>`: what a server said about itself in the handshake, and how the
//! connection was made: transport, negotiated protocol revision, era, serverInfo,
//! capabilities and instructions.

use gatehouse_host::HostError;
use gatehouse_host::control::answers;
use serde_json::{Map, Value, json};

use crate::door::Door;
use crate::output;

/// The most lines of a server's instructions shown, and characters of each (`--json` has all).
const MAX_INSTRUCTION_LINES: usize = 200;
const MAX_INSTRUCTION_LINE: usize = 300;

/// How each era is described to a person.
fn describe_era(era: &str) -> String {
    match era {
        "legacy" => "legacy (initialize handshake)".to_owned(),
        "modern" => "modern (server/discover, per-request metadata)".to_owned(),
        other => output::name(other),
    }
}

pub async fn run(door: &Door<'_>, server: &str, json: bool) -> Result<(), HostError> {
    let facts = door
        .ask(
            server,
            async |engine| engine.info(server).await,
            async |connection| Ok(answers::facts(connection)),
        )
        .await?;
    let answers::ServerFacts {
        server: name,
        transport,
        era,
        era_reason,
        initialize: init,
    } = facts;
    if json {
        return output::print_json(&json!({
            "server": name,
            "transport": transport,
            "protocolVersion": init.protocol_version,
            "era": era,
            "eraReason": era_reason,
            "serverInfo": init.server_info,
            "capabilities": init.capabilities,
            "instructions": init.instructions,
        }));
    }
    let info = &init.server_info;
    let mut implementation = format!(
        "{} {}",
        output::name(&info.name),
        output::name(&info.version)
    );
    if let Some(title) = &info.title {
        implementation.push_str(&format!(" ({})", output::name(title)));
    }
    let fields = [
        ("server", name),
        ("implementation", implementation),
        ("transport", output::name(&transport)),
        ("protocol", output::name(&init.protocol_version)),
        ("era", describe_era(&era)),
        ("chosen because", era_reason),
        (
            "capabilities",
            output::name(&describe_capabilities(&init.capabilities)),
        ),
    ];
    for (label, value) in fields {
        say!("{:<15} {value}", format!("{label}:"));
    }
    match init.instructions.as_deref().map(str::trim) {
        Some(text) if !text.is_empty() => {
            say!("instructions:");
            for line in text.lines().take(MAX_INSTRUCTION_LINES) {
                say!(
                    "  {}",
                    crate::terminal_text::capped(line, MAX_INSTRUCTION_LINE)
                );
            }
            let more = text.lines().count().saturating_sub(MAX_INSTRUCTION_LINES);
            if more > 0 {
                say!("  … ({more} more lines; see --json)");
            }
        }
        _ => say!("{:<15} none", "instructions:"),
    }
    Ok(())
}

/// `prompts (listChanged), resources (subscribe), tools`: each capability with the
/// sub-capabilities it turns on (a `true` flag or a nested object).
fn describe_capabilities(capabilities: &Map<String, Value>) -> String {
    if capabilities.is_empty() {
        return "none".to_owned();
    }
    capabilities
        .iter()
        .map(|(name, value)| {
            let features: Vec<&str> = value
                .as_object()
                .map(|sub| {
                    sub.iter()
                        .filter(|(_, v)| matches!(v, Value::Bool(true) | Value::Object(_)))
                        .map(|(k, _)| k.as_str())
                        .collect()
                })
                .unwrap_or_default();
            if features.is_empty() {
                name.clone()
            } else {
                format!("{name} ({})", features.join(", "))
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_each_capability_with_what_it_turns_on() {
        let Value::Object(capabilities) = json!({
            "logging": {},
            "resources": {"subscribe": true, "listChanged": false},
            "tasks": {"list": {}, "requests": {"tools": {"call": {}}}}
        }) else {
            panic!("an object literal");
        };
        assert_eq!(
            describe_capabilities(&capabilities),
            "logging, resources (subscribe), tasks (list, requests)",
            "a false flag is not a feature"
        );
        assert_eq!(describe_capabilities(&Map::new()), "none");
    }
}
