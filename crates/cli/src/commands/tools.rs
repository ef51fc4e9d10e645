//! `gatehouse tools <server>`: connect, list the tools (their definitions kept in the policy's
//! history, so a rule made for an earlier one shows as stale), disconnect cleanly. A server that
//! declares no tools is not asked for them; the command says what the server offers instead.

use gatehouse_host::control::answers::{self, ToolListing};
use gatehouse_host::{HostError, Offer, ToolInfo, ToolVisibility};
use serde_json::json;

use crate::door::Door;
use crate::output;

pub async fn run(door: &Door<'_>, server: &str, json: bool) -> Result<(), HostError> {
    let listing = door
        .ask(
            server,
            async |engine| engine.list_tools(server).await,
            async |connection| answers::tool_listing(connection).await,
        )
        .await?;
    print(listing, json)
}

/// Prints a listing.
fn print(listing: ToolListing, json: bool) -> Result<(), HostError> {
    let ToolListing {
        server: name,
        transport,
        protocol_version,
        server_info,
        offers,
        tools,
        malformed,
    } = listing;
    if json {
        output::print_json(&json!({
            "server": name,
            "transport": transport,
            "protocolVersion": protocol_version,
            "serverInfo": { "name": server_info.name, "version": server_info.version },
            "offers": offers,
            "tools": tools,
            "malformed": malformed,
        }))?;
        return Ok(());
    }
    if !offers.contains(&Offer::Tools) {
        say!("{}", no_tools(&name, &offers));
        return Ok(());
    }
    say!(
        "{} ({} {}, protocol {} over {transport}): {} tools",
        name,
        output::name(&server_info.name),
        output::name(&server_info.version),
        output::name(&protocol_version),
        tools.len()
    );
    let about = |t: &ToolInfo| {
        let about = t
            .title
            .clone()
            .or_else(|| t.description.clone())
            .unwrap_or_default();
        about.lines().next().unwrap_or_default().to_owned()
    };
    // The APP column only where a tool has an MCP App or a visibility.
    if tools.iter().any(|t| t.ui.is_some()) {
        let rows: Vec<[String; 3]> = tools
            .iter()
            .map(|t| [t.name.clone(), about(t), app_note(t)])
            .collect();
        output::print_table(["TOOL", "DESCRIPTION", "APP"], &rows);
    } else {
        let rows: Vec<[String; 2]> = tools.iter().map(|t| [t.name.clone(), about(t)]).collect();
        output::print_table(["TOOL", "DESCRIPTION"], &rows);
    }
    if !malformed.is_empty() {
        say_err!(
            "warning: {} malformed tool entries were skipped (see --json)",
            malformed.len()
        );
    }
    Ok(())
}

/// A tool's MCP App, and who may call it when not both the model and the app: `ui://x/app`,
/// `app only`, `ui://x/app (model only)`.
fn app_note(tool: &ToolInfo) -> String {
    let Some(ui) = &tool.ui else {
        return String::new();
    };
    let model = ui.allows(ToolVisibility::Model);
    let app = ui.allows(ToolVisibility::App);
    let who = match (model, app) {
        (true, true) => None,
        (false, true) => Some("app only"),
        (true, false) => Some("model only"),
        (false, false) => Some("hidden"),
    };
    match (ui.resource_uri.as_deref(), who) {
        (Some(uri), Some(who)) => format!("{} ({who})", output::name(uri)),
        (Some(uri), None) => output::name(uri),
        (None, Some(who)) => who.to_owned(),
        (None, None) => String::new(),
    }
}

/// `notes offers no tools (it offers prompts, resources)`.
fn no_tools(name: &str, offers: &[Offer]) -> String {
    if offers.is_empty() {
        return format!("{name} offers no tools (nor any other feature)");
    }
    let offered: Vec<&str> = offers.iter().map(|o| o.capability()).collect();
    format!("{name} offers no tools (it offers {})", offered.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(ui: serde_json::Value) -> ToolInfo {
        let tool: gatehouse_host::protocol::Tool = serde_json::from_value(json!({
            "name": "t", "inputSchema": {}, "_meta": { "ui": ui }
        }))
        .expect("a tool");
        ToolInfo::from(&tool)
    }

    #[test]
    fn notes_a_tools_app_and_who_may_call_it() {
        assert_eq!(
            app_note(&tool(json!({ "resourceUri": "ui://a/app" }))),
            "ui://a/app"
        );
        assert_eq!(
            app_note(&tool(json!({ "visibility": ["app"] }))),
            "app only"
        );
        assert_eq!(
            app_note(&tool(
                json!({ "resourceUri": "ui://a/app", "visibility": ["model"] })
            )),
            "ui://a/app (model only)"
        );
        assert_eq!(app_note(&tool(json!({ "visibility": [] }))), "hidden");
    }

    #[test]
    fn says_what_a_server_without_tools_offers() {
        assert_eq!(
            no_tools("notes", &[Offer::Prompts, Offer::Resources]),
            "notes offers no tools (it offers prompts, resources)"
        );
        assert_eq!(
            no_tools("bare", &[]),
            "bare offers no tools (nor any other feature)",
            "a server that declares nothing is still described, not left blank"
        );
    }
}
