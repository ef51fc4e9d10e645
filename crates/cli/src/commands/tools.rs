//! `gatehouse tools <server>`: connect, list the tools, disconnect cleanly.

use gatehouse_host::{Host, HostError, ToolInfo};
use serde_json::json;

use crate::commands::connection::Connection;
use crate::output;

pub async fn run(host: &Host, server: &str, json: bool) -> Result<(), HostError> {
    let connection = Connection::open(host, server).await?;
    let listed = connection
        .client
        .list_tools()
        .await
        .map_err(HostError::from);
    let init = connection.client.initialize_result().clone();
    let transport = connection.client.transport_kind();
    let name = connection.server.clone();
    let page = connection.close(listed).await?;
    let tools: Vec<ToolInfo> = page.items.iter().map(ToolInfo::from).collect();
    if json {
        output::print_json(&json!({
            "server": name,
            "transport": transport,
            "protocolVersion": init.protocol_version,
            "serverInfo": { "name": init.server_info.name, "version": init.server_info.version },
            "tools": tools,
            "malformed": page.malformed,
        }))?;
        return Ok(());
    }
    say!(
        "{} ({} {}, protocol {} over {transport}): {} tools",
        name,
        init.server_info.name,
        init.server_info.version,
        init.protocol_version,
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
