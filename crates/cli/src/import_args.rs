//! The arguments of `gatehouse import AGENT`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The agent: claude-code, claude-desktop, cursor, vscode, codex, gemini, windsurf, zed,
    /// or registry (a project's server.json, with --project)
    pub agent: String,
    /// Also import this project's servers (.mcp.json, .cursor/mcp.json, .vscode/mcp.json,
    /// .codex/config.toml, .gemini/settings.json, .zed/settings.json, server.json)
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// Show what would be imported, and write nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Import without asking (the preview is still printed)
    #[arg(long, short = 'y')]
    pub yes: bool,
    /// Print JSON instead of text
    #[arg(long)]
    pub json: bool,
    /// Import only this entry (by the agent's name for it); repeatable
    #[arg(long, value_name = "NAME")]
    pub only: Vec<String>,
    /// Leave this entry out; repeatable
    #[arg(long, value_name = "NAME")]
    pub skip: Vec<String>,
    /// Replace the Gatehouse server of the same name with this entry; repeatable
    #[arg(long, value_name = "NAME")]
    pub replace: Vec<String>,
    /// Import this entry under another name; repeatable
    #[arg(long, value_name = "NAME=NEW", value_parser = parse_rename)]
    pub rename: Vec<(String, String)>,
    /// What to do with every other entry whose name a Gatehouse server has
    #[arg(long, value_enum, value_name = "CHOICE")]
    pub on_clash: Option<OnClashArg>,
    /// The gateway's HTTP port, to recognise entries that already go through it
    #[arg(long, value_name = "PORT", default_value_t = 47821)]
    pub gateway_port: u16,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum OnClashArg {
    Skip,
    Rename,
    Replace,
}

fn parse_rename(raw: &str) -> Result<(String, String), String> {
    match raw.split_once('=') {
        Some((entry, name)) if !entry.is_empty() && !name.is_empty() => {
            Ok((entry.to_owned(), name.to_owned()))
        }
        _ => Err(format!("`{raw}` is not NAME=NEW")),
    }
}
