//! `gatehouse import AGENT`: the agent's MCP servers made Gatehouse servers. It prints a preview
//! first (every server as Gatehouse will keep it, every value that goes to the keyring masked,
//! every entry left out with the reason, every clash), then imports once the person confirms
//! (on the terminal, or `--yes`); `--dry-run` stops after the preview. Values of VS Code inputs
//! come from `GATEHOUSE_INPUT_<ID>` variables. Nothing is written when a clash is unresolved, a
//! file changed after the preview, or the keyring cannot keep a secret.

use gatehouse_host::agent_import::plan::{Action, PlannedServer};
use gatehouse_host::agent_import::{self, Choices, ImportPlan, OnClash};
use gatehouse_host::agents::{Agent, Places};
use gatehouse_host::{Host, HostError};
use serde_json::json;

use crate::agent_args::{agent_named, project_dir};
use crate::confirm::confirmed;
use crate::import_args::{ImportArgs, OnClashArg};
use crate::output;

/// The prefix of the variables that give VS Code inputs' values.
const INPUT_PREFIX: &str = "GATEHOUSE_INPUT_";

pub async fn run(host: &Host, args: ImportArgs) -> Result<(), HostError> {
    let agent = agent_named(&args.agent, Agent::ALL.into_iter(), |known| {
        format!("unknown agent `{}`: use one of {known}", args.agent)
    })?;
    let places = Places::from_env()
        .ok_or_else(|| HostError::Validation("no home directory is known: set HOME".into()))?;
    let project = project_dir(args.project.as_deref())?;
    let choices = Choices {
        only: args.only.into_iter().collect(),
        skip: args.skip.into_iter().collect(),
        replace: args.replace.into_iter().collect(),
        rename: args.rename.into_iter().collect(),
        on_clash: args.on_clash.map(|c| match c {
            OnClashArg::Skip => OnClash::Skip,
            OnClashArg::Rename => OnClash::Rename,
            OnClashArg::Replace => OnClash::Replace,
        }),
        inputs: std::env::vars()
            .filter_map(|(k, v)| Some((k.strip_prefix(INPUT_PREFIX)?.to_owned(), v)))
            .collect(),
    };
    let plan = agent_import::preview(
        host,
        &places,
        agent,
        project.as_deref(),
        &choices,
        &[args.gateway_port],
    )
    .await?;
    if plan.files.is_empty() {
        return Err(HostError::Validation(format!(
            "no config file of {} found under {}{}",
            agent.title(),
            places.home.display(),
            project.map_or(String::new(), |p| format!(" or {}", p.display()))
        )));
    }
    if !args.json {
        print_plan(&plan);
    }
    let importable = plan.servers.len() - plan.unresolved().len();
    if args.dry_run || plan.servers.is_empty() {
        if args.json {
            return output::print_json(
                &json!({ "plan": plan, "written": [], "dryRun": args.dry_run }),
            );
        }
        if plan.servers.is_empty() {
            say!("nothing to import");
        } else {
            say!("dry run: nothing was written");
        }
        return Ok(());
    }
    let secrets: usize = plan.servers.iter().map(|s| s.preview.secrets.len()).sum();
    let question = format!("import {importable} server(s), {secrets} value(s) to the keyring?");
    if plan.unresolved().is_empty() && !args.yes && !confirmed(&question, "import")? {
        say!("nothing was imported");
        return Ok(());
    }
    let written = agent_import::apply(host, &plan).await?;
    if args.json {
        return output::print_json(&json!({ "plan": plan, "written": written, "dryRun": false }));
    }
    for w in &written {
        let verb = if w.replaced { "replaced" } else { "added" };
        let secrets = match w.secrets {
            0 => String::new(),
            n => format!(", {n} value(s) in the keyring"),
        };
        say!("{verb} server `{}` (from `{}`{secrets})", w.name, w.entry);
    }
    say!(
        "imported {} server(s) from {}; point {} at Gatehouse with `gatehouse connect {}`",
        written.len(),
        agent.title(),
        agent.title(),
        agent.id()
    );
    Ok(())
}

fn print_plan(plan: &ImportPlan) {
    say!("{} ({})", plan.agent.title(), plan.agent.id());
    for file in &plan.files {
        match (&file.section, &file.error) {
            (_, Some(error)) => say!("  {}: cannot be read: {error}", file.path.display()),
            (Some(section), None) => say!("  {} {section}", file.path.display()),
            (None, None) => say!("  {}", file.path.display()),
        }
    }
    for server in &plan.servers {
        print_server(server);
    }
    for left in &plan.skipped {
        say!("  - `{}` not imported: {}", left.entry, left.reason);
    }
    for input in plan.inputs.iter().filter(|i| !i.given) {
        say!(
            "  ? input `{}`{}: the agent asks for it when it starts a server; set GATEHOUSE_INPUT_{}",
            input.id,
            input
                .description
                .as_deref()
                .map_or(String::new(), |d| format!(" ({d})")),
            gatehouse_host::agent_import::convert::env_name(&input.id)
        );
    }
    for server in plan.unresolved() {
        if let Action::Unresolved { clashes_with } = &server.action {
            say!(
                "  ! `{}` clashes with the server `{clashes_with}`: --skip {0}, --rename {0}=NEW, --replace {0}, or --on-clash skip|rename|replace",
                server.entry
            );
        }
    }
}

fn print_server(server: &PlannedServer) {
    let p = &server.preview;
    let action = match &server.action {
        Action::Add => "add".to_owned(),
        Action::Replace { server } => format!("replace `{server}` with"),
        Action::Unresolved { .. } => "clash:".to_owned(),
    };
    let named = if server.name == server.entry {
        format!("`{}`", server.name)
    } else {
        format!("`{}` as `{}`", server.entry, server.name)
    };
    let disabled = if p.enabled { "" } else { " (disabled)" };
    say!("  + {action} {named}{disabled}");
    if let Some(command) = &p.command {
        say!("      command: {command} {}", p.args.join(" "));
    }
    if let Some(cwd) = &p.cwd {
        say!("      cwd: {cwd}");
    }
    if let Some(url) = &p.url {
        say!("      url: {url} ({})", p.transport.unwrap_or("auto"));
    }
    for shown in p.env.iter().chain(&p.headers) {
        let place = if p.url.is_some() { "header" } else { "env" };
        let keyring = if shown.secret { "  → keyring" } else { "" };
        say!("      {place} {}={}{keyring}", shown.name, shown.value);
    }
    if !p.references.is_empty() {
        say!("      from your environment: {}", p.references.join(", "));
    }
    for warning in &p.warnings {
        say!("      note: {warning}");
    }
}
