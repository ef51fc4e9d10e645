//! `gatehouse tools <server>`: connect, list the tools, disconnect cleanly.

use gatehouse_host::connect::open_client;
use gatehouse_host::{Host, HostError, ToolInfo};
use serde_json::json;

use crate::output;

pub async fn run(host: &Host, server: &str, json: bool) -> Result<(), HostError> {
    let config = host.registry().get(server).await?;
    if !config.enabled {
        return Err(HostError::Validation(format!(
            "`{}` is disabled; enable it with `gatehouse server enable {}`",
            config.name, config.name
        )));
    }
    let client = open_client(&config, host.registry().secrets()).await?;
    let listed = client.list_tools().await;
    let init = client.initialize_result().clone();
    let transport = client.transport_kind();
    client.close().await?;
    let page = listed?;
    let tools: Vec<ToolInfo> = page.items.iter().map(ToolInfo::from).collect();
    if json {
        output::print_json(&json!({
            "server": config.name,
            "transport": transport,
            "protocolVersion": init.protocol_version,
            "serverInfo": { "name": init.server_info.name, "version": init.server_info.version },
            "tools": tools,
            "malformed": page.malformed,
        }))?;
        return Ok(());
    }
    println!(
        "{} ({} {}, protocol {} over {transport}): {} tools",
        config.name,
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
        eprintln!(
            "warning: {} malformed tool entries were skipped (see --json)",
            page.malformed.len()
        );
    }
    Ok(())
}
