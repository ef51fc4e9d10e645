//! `gatehouse audit prune --older-than DAYS | --before TIME [--json]`: drops the audit rows
//! written before the cutoff and appends the anchor row that keeps the chain verifiable (see
//! `gatehouse_host::audit::retention`). Prints how many rows were dropped; dropping none is not
//! an error. A log that does not verify up to the first row kept is refused (status 1, naming
//! the broken row) and left as it was.

use std::time::Duration;

use gatehouse_host::{Host, HostError, PruneReport};

use crate::audit_args::AuditPruneArgs;
use crate::output;

const DAY: Duration = Duration::from_secs(24 * 60 * 60);

pub async fn run(host: &Host, args: AuditPruneArgs) -> Result<(), HostError> {
    let report = match (args.older_than, &args.before) {
        (Some(days), _) => host.prune_audit_older_than(DAY * days).await?,
        (None, Some(before)) => host.prune_audit_before(before).await?,
        // clap requires one of the two.
        (None, None) => {
            return Err(HostError::Validation(
                "give --older-than DAYS or --before TIME".into(),
            ));
        }
    };
    if args.json {
        return output::print_json(&report);
    }
    say!("{}", sentence(&report));
    Ok(())
}

fn sentence(report: &PruneReport) -> String {
    let rows = if report.dropped == 1 { "row" } else { "rows" };
    match &report.anchor {
        Some(anchor) => format!(
            "pruned {} audit {rows} written before {}; the chain now starts from the \
             retention anchor at row {} (hash {})",
            report.dropped, report.before, anchor.seq, anchor.hash
        ),
        None => format!(
            "pruned 0 audit rows: none was written before {}",
            report.before
        ),
    }
}
