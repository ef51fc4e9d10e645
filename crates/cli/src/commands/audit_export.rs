//! `gatehouse audit export --format jsonl|csv [-o FILE]`: every audit row, oldest first, to
//! stdout or to a file. A file is written whole or not at all (see
//! `gatehouse_host::audit::export_file`): a failure leaves no partial file behind and an
//! existing `FILE` untouched; the new file is readable by its owner only.

use std::io::BufWriter;

use gatehouse_host::{Host, HostError};

use crate::audit_args::AuditExportArgs;

pub async fn run(host: &Host, args: AuditExportArgs) -> Result<(), HostError> {
    let format = args.format.into();
    match &args.output {
        None => {
            let stdout = BufWriter::new(crate::stdout::Stdout);
            host.export_audit(format, stdout).await?;
        }
        Some(path) => {
            host.export_audit_to_file(format, path).await?;
        }
    }
    Ok(())
}
