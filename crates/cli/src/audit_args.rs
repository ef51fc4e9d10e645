//! The arguments of `gatehouse audit`: `list`, `search`, `export`, `verify`, `head`, `key`
//! and `prune`.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};
use gatehouse_host::ExportFormat;

#[derive(Debug, Subcommand)]
pub enum AuditCommand {
    /// List audit rows, newest first
    List(AuditListArgs),
    /// Find the rows holding every word of TEXT (server, tool, source, decision, method,
    /// details), newest first
    Search(AuditSearchArgs),
    /// Write every row, oldest first, as JSONL or CSV
    Export(AuditExportArgs),
    /// Check the audit log's chain with its key, and its head against the checkpoint (exit
    /// status 1 naming the first broken row, or what cannot be vouched for)
    Verify(AuditVerifyArgs),
    /// Print the head checkpoint (the newest keyed row's seq and MAC, itself MACed) as JSON, to
    /// keep a copy outside this machine for `audit verify --head`
    Head,
    /// The audit key: export it to a file for an auditor
    #[command(subcommand)]
    Key(AuditKeyCommand),
    /// Drop the rows older than a number of days (or a time), keeping the chain verifiable
    /// through an anchor row
    Prune(AuditPruneArgs),
}

#[derive(Debug, Args)]
pub struct AuditVerifyArgs {
    /// Check with the key in this file (`gatehouse audit key export`) instead of the keyring's
    #[arg(long, value_name = "FILE")]
    pub key_file: Option<PathBuf>,
    /// Also check the log against this copy of the head checkpoint (`gatehouse audit head`)
    #[arg(long, value_name = "FILE")]
    pub head: Option<PathBuf>,
    /// Print the whole report as JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum AuditKeyCommand {
    /// Write the audit key to a new file (readable by you only) for an auditor, who checks a
    /// copy of the database with `gatehouse --data-dir COPY audit verify --key-file FILE`
    Export {
        /// The file to create; an existing file is not replaced
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
    },
}

#[derive(Debug, Args)]
pub struct AuditListArgs {
    /// Only rows written at or after this time (RFC 3339, such as 2026-11-23T09:00:00Z)
    #[arg(long, value_name = "TIME")]
    pub since: Option<String>,
    /// Only rows about this server
    #[arg(long, value_name = "NAME")]
    pub server: Option<String>,
    /// Only rows about this tool
    #[arg(long, value_name = "NAME")]
    pub tool: Option<String>,
    /// Only rows from this source: user, server, app, model or gateway
    #[arg(long, value_name = "SOURCE")]
    pub source: Option<String>,
    /// Only the rows of this gateway client's requests
    #[arg(long, value_name = "NAME")]
    pub client: Option<String>,
    /// At most this many rows (default 100)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub limit: Option<u32>,
    /// Print JSON instead of a table
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct AuditSearchArgs {
    /// The words to find, taken literally (a trailing * matches a prefix)
    pub text: String,
    /// At most this many rows (default 100)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub limit: Option<u32>,
    /// Print JSON instead of a table
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct AuditExportArgs {
    /// jsonl (one JSON row per line) or csv
    #[arg(long, value_enum)]
    pub format: Format,
    /// Write to this file (replaced whole, only once the export is complete) instead of stdout
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("cutoff").required(true))]
pub struct AuditPruneArgs {
    /// Drop the rows written more than this many days ago (0: every row written until now)
    #[arg(long, value_name = "DAYS", group = "cutoff", value_parser = clap::value_parser!(u32).range(..=36_500))]
    pub older_than: Option<u32>,
    /// Drop the rows written before this time (RFC 3339, such as 2026-11-23T09:00:00Z, or a date)
    #[arg(long, value_name = "TIME", group = "cutoff")]
    pub before: Option<String>,
    /// Print JSON instead of a sentence
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Format {
    Jsonl,
    Csv,
}

impl From<Format> for ExportFormat {
    fn from(format: Format) -> Self {
        match format {
            Format::Jsonl => ExportFormat::Jsonl,
            Format::Csv => ExportFormat::Csv,
        }
    }
}
