//! `gatehouse audit list|search|export|verify|head|key|prune`: the audit log, read from the
//! database the app shares. `list` prints the newest rows as a table (or JSON), `search` those
//! holding some words; `export` writes every row to stdout or a file (see
//! [`super::audit_export`]); `verify`, `head` and `key` check the keyed chain (see
//! [`super::audit_verify`]); `prune` drops old rows (see [`super::audit_prune`]). No
//! connection is made.

use gatehouse_host::{AuditFilter, AuditRow, Host, HostError};
use serde_json::json;

use crate::audit_args::{AuditCommand, AuditListArgs, AuditSearchArgs};
use crate::output;

pub async fn run(host: &Host, command: AuditCommand) -> Result<(), HostError> {
    match command {
        AuditCommand::List(args) => list(host, args).await,
        AuditCommand::Search(args) => search(host, args).await,
        AuditCommand::Export(args) => super::audit_export::run(host, args).await,
        AuditCommand::Verify(args) => super::audit_verify::verify(host, args).await,
        AuditCommand::Head => super::audit_verify::head(host).await,
        AuditCommand::Key(command) => super::audit_verify::key(host, command).await,
        AuditCommand::Prune(args) => super::audit_prune::run(host, args).await,
    }
}

async fn list(host: &Host, args: AuditListArgs) -> Result<(), HostError> {
    let filter = AuditFilter {
        since: args.since,
        server: args.server,
        tool: args.tool,
        source: args.source,
        client: args.client,
        limit: args.limit,
        ..AuditFilter::default()
    };
    let rows = host.audit_rows(&filter).await?;
    print_rows(&rows, args.json)
}

async fn search(host: &Host, args: AuditSearchArgs) -> Result<(), HostError> {
    let rows = host.search_audit(&args.text, args.limit).await?;
    print_rows(&rows, args.json)
}

/// The rows as a table, or as `{"rows": [...]}` with `json`.
fn print_rows(rows: &[AuditRow], json: bool) -> Result<(), HostError> {
    if json {
        return output::print_json(&json!({ "rows": rows }));
    }
    if rows.is_empty() {
        say!("no audit rows");
        return Ok(());
    }
    let cells: Vec<[String; 7]> = rows.iter().map(cells).collect();
    output::print_table(
        [
            "TIME", "KIND", "SERVER", "TOOL", "SOURCE", "DECISION", "OUTCOME",
        ],
        &cells,
    );
    Ok(())
}

fn cells(row: &AuditRow) -> [String; 7] {
    let text = |field: &Option<String>| field.clone().unwrap_or_default();
    let outcome = match row.event.duration_ms {
        Some(ms) if !row.outcome().is_empty() => format!("{} ({ms} ms)", row.outcome()),
        _ => row.outcome().to_owned(),
    };
    [
        row.at.clone(),
        row.event.kind.to_string(),
        text(&row.event.server),
        text(&row.event.tool),
        text(&row.event.source),
        text(&row.event.decision),
        outcome,
    ]
}
