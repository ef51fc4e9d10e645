//! The gateway's answer to an agent's `initialize` (2025-11-25 basic/lifecycle): the agent's
//! revision when the gateway speaks it, else the newest; what the gateway serves; and combined
//! `instructions`: Gatehouse's own, then those of each server the client's profile shows, under
//! the server's name, so the model reads what each server says of itself as it would connected
//! directly. Each server's part is clipped to [`MAX_PER_SERVER`] bytes and the whole to
//! [`MAX_TOTAL`]; a server not connected within [`GATHER_WAIT`] is left out rather than holding
//! the handshake up.

use std::time::Duration;

use serde_json::{Value, json};

use super::profiles::Served;
use super::servers;
use crate::host::Host;

/// The protocol revisions the gateway speaks as a server, newest first.
pub const SUPPORTED_VERSIONS: [&str; 4] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
/// The most of one server's instructions passed on, in bytes.
pub const MAX_PER_SERVER: usize = 4 * 1024;
/// The most of the combined instructions, in bytes.
pub const MAX_TOTAL: usize = 16 * 1024;
/// How long `initialize` waits for the servers' instructions.
const GATHER_WAIT: Duration = Duration::from_secs(2);

/// Gatehouse's own part of the instructions.
const OWN: &str = "Gatehouse: the person's MCP servers, each tool named SERVER__TOOL (or by its own name where the person chose so). Every call passes the person's policy and may wait for their approval; a call they deny returns isError with the reason.";

/// The `initialize` result for `served`.
pub async fn initialize(host: &Host, served: &Served, params: &Value) -> Value {
    let asked = params.get("protocolVersion").and_then(Value::as_str);
    let version = asked
        .filter(|v| SUPPORTED_VERSIONS.contains(v))
        .unwrap_or(SUPPORTED_VERSIONS[0]);
    let parts = servers_instructions(host, served).await;
    json!({
        "protocolVersion": version,
        "capabilities": {
            "tools": { "listChanged": true },
            "prompts": { "listChanged": true },
            "resources": { "listChanged": true, "subscribe": true },
            "completions": {},
            "logging": {},
            // 2025-11-25 basic/utilities/tasks: a call may be made a task (`super::tasks`).
            "tasks": { "list": {}, "cancel": {}, "requests": { "tools": { "call": {} } } },
        },
        "serverInfo": { "name": "gatehouse", "version": env!("CARGO_PKG_VERSION") },
        "instructions": combined(&parts),
    })
}

/// The instructions of each connected server the profile shows, by name in name order.
pub(super) async fn servers_instructions(host: &Host, served: &Served) -> Vec<(String, String)> {
    let Ok(enabled) = servers::enabled(host).await else {
        return Vec::new();
    };
    let deadline = tokio::time::Instant::now() + GATHER_WAIT;
    let mut parts = Vec::new();
    for (name, id) in enabled {
        if !served.profile.sees_server(&name) {
            continue;
        }
        let connecting = servers::session(host, &id, &served.client);
        if let Ok(Ok(connection)) = tokio::time::timeout_at(deadline, connecting).await
            && let Some(text) = &connection.client().initialize_result().instructions
            && !text.trim().is_empty()
        {
            parts.push((name, text.trim().to_owned()));
        }
    }
    parts
}

/// Gatehouse's part, then each server's under its name, each and the whole clipped.
pub fn combined(parts: &[(String, String)]) -> String {
    let mut text = OWN.to_owned();
    for (server, instructions) in parts {
        let part = format!("\n\n## {server}\n{}", clip(instructions, MAX_PER_SERVER));
        if text.len() + part.len() > MAX_TOTAL {
            text.push_str("\n\n(the instructions of further servers are left out: too long)");
            break;
        }
        text.push_str(&part);
    }
    text
}

/// `text` cut to at most `max` bytes on a character boundary, saying so when cut.
fn clip(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{} … (cut)", &text[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_servers_instructions_come_under_its_name_after_gatehouses_own() {
        let parts = vec![
            ("e".to_owned(), "Use echo to echo.".to_owned()),
            ("m".to_owned(), "A knowledge graph.".to_owned()),
        ];
        let text = combined(&parts);
        assert!(text.starts_with(OWN), "{text}");
        let e = text.find("## e\nUse echo to echo.").expect("e's part");
        let m = text.find("## m\nA knowledge graph.").expect("m's part");
        assert!(e < m, "{text}");
        assert_eq!(combined(&[]), OWN);
    }

    #[test]
    fn a_long_part_is_clipped_and_the_whole_is_bounded() {
        let long = "é".repeat(MAX_PER_SERVER);
        let text = combined(&[("big".to_owned(), long)]);
        assert!(
            text.len() < OWN.len() + MAX_PER_SERVER + 64,
            "{}",
            text.len()
        );
        assert!(text.ends_with("… (cut)"));
        let many: Vec<(String, String)> = (0..10)
            .map(|i| (format!("s{i}"), "x".repeat(MAX_PER_SERVER)))
            .collect();
        let text = combined(&many);
        assert!(text.len() <= MAX_TOTAL + 80, "{}", text.len());
        assert!(text.contains("left out"), "{text}");
    }
}
