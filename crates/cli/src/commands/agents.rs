//! `gatehouse agents [--project DIR] [--json]`: the agents whose config files exist on this
//! machine, each file's MCP servers (kind, command or URL, through Gatehouse or not, disabled,
//! warnings, skipped entries with their reasons) and the plaintext secrets each holds, by name
//! and place only: no value is printed, not even masked. It reads the files only (no engine,
//! database or keyring). A file that cannot be read or parsed is listed with its error (file,
//! line, column); the exit status is still 0, as the other files were read.

use std::path::Path;

use gatehouse_host::HostError;
use gatehouse_host::agents::listing::{FileListing, ServerListing, listing};
use gatehouse_host::agents::{Places, discover};

use crate::output;

pub fn run(project: Option<&Path>, gateway_port: u16, json: bool) -> Result<(), HostError> {
    let places = Places::from_env()
        .ok_or_else(|| HostError::Validation("no home directory is known: set HOME".into()))?;
    if let Some(dir) = project
        && !dir.is_dir()
    {
        return Err(HostError::Validation(format!(
            "--project {}: not a directory",
            dir.display()
        )));
    }
    let files = discover(&places, project);
    let shown = listing(&files, &[gateway_port]);
    if json {
        return output::print_json(&shown);
    }
    if shown.agents.is_empty() {
        say!(
            "no agent's MCP config found under {}{}",
            places.home.display(),
            project.map_or(String::new(), |p| format!(" or {}", p.display()))
        );
        return Ok(());
    }
    for (i, agent) in shown.agents.iter().enumerate() {
        if i > 0 {
            say!();
        }
        say!("{} ({})", agent.title, agent.agent.id());
        for file in &agent.files {
            print_file(file);
        }
    }
    Ok(())
}

fn print_file(file: &FileListing) {
    let scope = match file.scope {
        gatehouse_host::agents::model::Scope::User => "user",
        gatehouse_host::agents::model::Scope::Project => "project",
    };
    match &file.section {
        Some(section) => say!("  {} {section} ({scope})", file.path.display()),
        None => say!("  {} ({scope})", file.path.display()),
    }
    if let Some(error) = &file.error {
        let at = match (error.line, error.column) {
            (Some(line), Some(column)) => format!(":{line}:{column}"),
            _ => String::new(),
        };
        say!("    error: {}{at}: {}", file.path.display(), error.message);
        return;
    }
    if file.servers.is_empty() && file.skipped.is_empty() {
        say!("    no MCP servers");
    }
    for server in &file.servers {
        print_server(server);
    }
    for skipped in &file.skipped {
        say!("    - {}: skipped: {}", skipped.name, skipped.reason);
    }
    for input in file.inputs.iter().filter(|i| i.password) {
        say!(
            "    input {}: a password the agent asks for (not in the file)",
            input.id
        );
    }
}

fn print_server(server: &ServerListing) {
    let target = match (&server.command, &server.url) {
        (Some(command), _) => std::iter::once(command.as_str())
            .chain(server.args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" "),
        (None, Some(url)) => url.clone(),
        (None, None) => String::new(),
    };
    let mut marks = Vec::new();
    if server.through_gatehouse {
        marks.push("through Gatehouse");
    }
    if server.disabled {
        marks.push("disabled");
    }
    let marks = if marks.is_empty() {
        String::new()
    } else {
        format!("  [{}]", marks.join(", "))
    };
    say!(
        "    - {} ({}): {}{marks}",
        server.name,
        server.kind,
        output::name(&target)
    );
    if !server.plaintext_secrets.is_empty() {
        let names: Vec<String> = server
            .plaintext_secrets
            .iter()
            .map(|s| {
                let place = serde_json::to_value(s.place)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default();
                format!("{place} {}", s.name)
            })
            .collect();
        say!(
            "        plaintext secrets: {} ({})",
            names.len(),
            names.join(", ")
        );
    }
    if let Some(var) = &server.bearer_token_env_var {
        say!("        bearer token from ${var}");
    }
    for warning in &server.warnings {
        say!("        warning: {warning}");
    }
}
