//! `gatehouse grants list|revoke`: the standing grants made from approvals ("for this session"
//! in the process that made it, "for a time" everywhere until it expires), shared with the app,
//! each with the source it covers and whether it covers only the arguments it was made for.
//! Revoking is audited.

use gatehouse_host::policy::{Covers, Grant, GrantScope};
use gatehouse_host::{Host, HostError};
use serde_json::json;

use crate::args::GrantsCommand;
use crate::output;

pub async fn run(host: &Host, command: GrantsCommand) -> Result<(), HostError> {
    match command {
        GrantsCommand::List { json } => {
            let grants = host.grants().await?;
            if json {
                return output::print_json(&json!({ "grants": grants }));
            }
            if grants.is_empty() {
                say!("no standing grants");
                return Ok(());
            }
            let rows: Vec<[String; 6]> = grants.iter().map(row).collect();
            output::print_table(["ID", "SERVER", "TOOL", "SOURCE", "COVERS", "HOLDS"], &rows);
            Ok(())
        }
        GrantsCommand::Revoke { id } => {
            let grant = host.revoke_grant(&id).await?;
            say!(
                "revoked grant {id} ({} on {})",
                grant.tool,
                grant.server.as_deref().unwrap_or(&grant.server_id)
            );
            Ok(())
        }
    }
}

fn row(grant: &Grant) -> [String; 6] {
    let holds = match grant.scope {
        GrantScope::Timed => format!("until {}", grant.expires_at.as_deref().unwrap_or("?")),
        GrantScope::Session => match grant.pid {
            Some(pid) => format!("while process {pid} runs"),
            None => "this session".into(),
        },
    };
    [
        grant.id.clone(),
        grant
            .server
            .clone()
            .unwrap_or_else(|| grant.server_id.clone()),
        grant.tool.clone(),
        match &grant.caller {
            Some(caller) => format!("{} ({caller})", grant.source.as_str()),
            None => grant.source.as_str().to_owned(),
        },
        match (grant.covers, &grant.rule) {
            (Covers::These, _) => "these arguments".to_owned(),
            (Covers::Any, Some(rule)) => format!("any arguments rule {rule} asks about"),
            (Covers::Any, None) => "any arguments".to_owned(),
        },
        holds,
    ]
}
