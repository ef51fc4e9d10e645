//! The arguments of `gatehouse audit`: `list`, `search`, `export`, `verify` and `prune`.

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
    /// Check the audit log's hash chain (exit status 1 naming the first broken row)
    Verify,
    /// Drop the rows older than a number of days (or a time), keeping the chain verifiable
    /// through an anchor row
    Prune(AuditPruneArgs),
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
