//! `gatehouse audit verify|head|key export`: checking the keyed audit chain.
//!
//! - `verify` checks every row with the audit key (the keyring's, or `--key-file`'s), and the
//!   newest rows against the head checkpoint (the keyring's, and `--head`'s copy): it prints
//!   what it found, which stretches are keyed and the checkpoint's state, and fails (status 1)
//!   when the log is broken or cannot be vouched for in full.
//! - `head` prints the head checkpoint as JSON, to keep a copy elsewhere.
//! - `key export -o FILE` writes the key to a new owner-only file for an auditor.

use gatehouse_host::{CheckOptions, Host, HostError, VerifyReport};

use crate::audit_args::{AuditKeyCommand, AuditVerifyArgs};
use crate::output;

pub async fn verify(host: &Host, args: AuditVerifyArgs) -> Result<(), HostError> {
    let options = CheckOptions {
        key_file: args.key_file,
        head_copy: args.head,
    };
    let report = host.check_audit(&options).await?;
    if args.json {
        output::print_json(&report)?;
    } else {
        // The first line is the result, which a failure says on stderr instead.
        let lines = report.lines();
        let details = match report.result {
            VerifyReport::Intact { .. } => &lines[..],
            _ => lines.get(1..).unwrap_or_default(),
        };
        for line in details {
            say!("{line}");
        }
    }
    match report.result {
        VerifyReport::Intact { .. } => Ok(()),
        VerifyReport::Broken { seq, reason } => Err(HostError::AuditBroken { seq, reason }),
        VerifyReport::Unverified { reason, .. } => Err(HostError::AuditUnverified { reason }),
    }
}

pub async fn head(host: &Host) -> Result<(), HostError> {
    // Whatever this process wrote is in the keyring before it is read.
    host.flush_audit_checkpoint().await?;
    match host.audit_checkpoint().await? {
        Some(checkpoint) => output::print_json(&checkpoint),
        None => Err(HostError::Validation(
            "no head checkpoint is kept yet: one is written once a keyed audit row is".into(),
        )),
    }
}

pub async fn key(host: &Host, command: AuditKeyCommand) -> Result<(), HostError> {
    match command {
        AuditKeyCommand::Export { output } => {
            let id = host.export_audit_key(&output).await?;
            say!(
                "wrote the audit key {id} to {}: whoever holds it can check the log, and forge \
                 rows that check, so hand it only to your auditor",
                output.display()
            );
            Ok(())
        }
    }
}
