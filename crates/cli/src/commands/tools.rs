//! `gatehouse tools <server>`: connect, list the tools, disconnect cleanly. A server that
//! declares no tools is not asked for them; the command says what the server offers instead.

use gatehouse_host::{Host, HostError, Offer, ToolInfo};
use gatehouse_mcp::ToolPage;
use serde_json::json;

use crate::commands::connection::Connection;
use crate::output;

pub async fn run(host: &Host, server: &str, json: bool) -> Result<(), HostError> {
    let connection = Connection::open(host, server).await?;
    let offers = Offer::of(connection.client());
    let listed = if offers.contains(&Offer::Tools) {
        connection
            .client()
            .list_tools()
            .await
            .map_err(HostError::from)
    } else {
        Ok(ToolPage::default())
    };
    let init = connection.client().initialize_result().clone();
    let transport = connection.client().transport_kind();
    let name = connection.server().to_owned();
    let page = connection.close(listed).await?;
    let tools: Vec<ToolInfo> = page.items.iter().map(ToolInfo::from).collect();
    if json {
        output::print_json(&json!({
            "server": name,
            "transport": transport,
            "protocolVersion": init.protocol_version,
            "serverInfo": { "name": init.server_info.name, "version": init.server_info.version },
            "offers": offers,
            "tools": tools,
            "malformed": page.malformed,
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
        output::name(&init.server_info.name),
        output::name(&init.server_info.version),
        output::name(&init.protocol_version),
        tools.len()
    );
    let rows: Vec<[String; 2]> = tools
        .iter()
        .map(|t| {
            let about = t
                .title
                .clone()
                .or_else(|| t.description.clone())
                .unwrap_or_default();
            [
                t.name.clone(),
                about.lines().next().unwrap_or_default().to_owned(),
            ]
        })
        .collect();
    output::print_table(["TOOL", "DESCRIPTION"], &rows);
    if !page.malformed.is_empty() {
        say_err!(
            "warning: {} malformed tool entries were skipped (see --json)",
            page.malformed.len()
        );
    }
    Ok(())
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
