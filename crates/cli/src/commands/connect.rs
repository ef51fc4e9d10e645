//! `gatehouse connect AGENT [--project DIR] [--dry-run] [--json] [--undo [--force]]`: the
//! agent's config file rewritten so that it reaches the person's servers through Gatehouse
//! (one `gatehouse mcp --client AGENT` entry; the entries imported into Gatehouse taken out,
//! everything else kept as it was). The diff is printed before anything is written, and the
//! write waits for the person's yes (on the terminal, or `--yes`); `--dry-run` stops there. The plaintext secrets left in the entries kept are named (server
//! and env or header name, never the value). `--undo` puts the original back byte for byte.
//! It runs on a Host opened in this process, like the other management commands.

use std::path::Path;

use gatehouse_host::agent_connect::{ConnectRequest, GatewayLaunch, Plan, apply, preview, undo};
use gatehouse_host::agents::{Agent, Places};
use gatehouse_host::{Host, HostError};
use serde_json::json;

use crate::agent_args::{agent_named, project_dir};
use crate::args::ConnectArgs;
use crate::confirm::confirmed;
use crate::output;

pub async fn run(host: &Host, data_dir: Option<&Path>, args: ConnectArgs) -> Result<(), HostError> {
    let agents = Agent::ALL.into_iter().filter(|a| *a != Agent::Registry);
    let agent = agent_named(&args.agent, agents, |known| {
        format!(
            "`{}` is not an agent Gatehouse connects: {known}",
            args.agent
        )
    })?;
    let project = project_dir(args.project.as_deref())?;
    if args.undo {
        let undone = undo(host, agent, project.as_deref(), args.force).await?;
        if args.json {
            return output::print_json(&undone);
        }
        say!(
            "restored {} as it was before the connect of {}{}",
            undone.file.display(),
            undone.connected_at,
            if undone.forced {
                " (its later changes are gone)"
            } else {
                ""
            }
        );
        return Ok(());
    }
    let plan = preview(host, &request(agent, data_dir, project.as_deref())?).await?;
    if plan.unchanged() {
        if args.json {
            return print_plan(&plan, false, None);
        }
        say!(
            "{} already reaches Gatehouse through its `gatehouse` entry: nothing to change",
            plan.file.display()
        );
        print_left(&plan);
        return Ok(());
    }
    if !args.json {
        for line in plan.diff.lines() {
            say!("{line}");
        }
    }
    if args.dry_run {
        if args.json {
            return print_plan(&plan, false, None);
        }
        say!("dry run: nothing was written");
        print_left(&plan);
        return Ok(());
    }
    let question = format!("write {}?", plan.file.display());
    if !args.yes && !confirmed(&question, "connect")? {
        say!("nothing was written");
        return Ok(());
    }
    let applied = apply(host, &plan).await?;
    if args.json {
        return print_plan(&plan, true, Some(&applied));
    }
    say!(
        "connected {}: {} now reaches Gatehouse as client `{}`",
        agent.title(),
        plan.file.display(),
        applied.client
    );
    if !plan.removed.is_empty() {
        say!("  removed (imported): {}", plan.removed.join(", "));
    }
    if !plan.kept.is_empty() {
        say!("  kept: {}", plan.kept.join(", "));
    }
    say!(
        "  client `{}` {}; its profile: {}",
        applied.client,
        if applied.client_added {
            "added"
        } else {
            "already known"
        },
        if applied.servers.is_empty() {
            "no server imported from this agent yet".to_owned()
        } else {
            applied.servers.join(", ")
        }
    );
    say!("  the original is kept in {}", applied.backup.display());
    say!("  undo with `gatehouse connect {} --undo`", agent.id());
    print_left(&plan);
    Ok(())
}

fn request(
    agent: Agent,
    data_dir: Option<&Path>,
    project: Option<&Path>,
) -> Result<ConnectRequest, HostError> {
    let places = Places::from_env()
        .ok_or_else(|| HostError::Validation("no home directory is known: set HOME".into()))?;
    let launch = GatewayLaunch::current(data_dir, agent).map_err(|e| HostError::Io {
        context: "cannot find the running gatehouse binary".into(),
        source: e,
    })?;
    Ok(ConnectRequest {
        agent,
        places,
        project: project.map(Path::to_path_buf),
        launch,
    })
}

fn print_left(plan: &Plan) {
    if plan.plaintext_secrets_left.is_empty() {
        return;
    }
    say!(
        "Gatehouse did not import these; their secrets are still in {}:",
        plan.file.display()
    );
    for left in &plan.plaintext_secrets_left {
        say!("  {}: {}", left.server, left.name);
    }
}

fn print_plan(
    plan: &Plan,
    written: bool,
    applied: Option<&gatehouse_host::agent_connect::Applied>,
) -> Result<(), HostError> {
    let mut value = serde_json::to_value(plan)
        .map_err(|e| HostError::Corrupt(format!("cannot encode JSON output: {e}")))?;
    if let Some(fields) = value.as_object_mut() {
        fields.insert("written".into(), json!(written));
        fields.insert("unchanged".into(), json!(plan.unchanged()));
        if let Some(applied) = applied {
            fields.insert("backup".into(), json!(applied.backup));
            fields.insert("client".into(), json!(applied.client));
            fields.insert("clientAdded".into(), json!(applied.client_added));
            fields.insert("servers".into(), json!(applied.servers));
        }
    }
    output::print_json(&value)
}
