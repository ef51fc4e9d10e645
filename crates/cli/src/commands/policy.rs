//! `gatehouse policy list|set|rm|trust`: the policy's rules, shared with the app. A rule can be
//! for one source, or for one client of the gateway (`--client`). A rule for a tool remembers
//! the tool's definition as last seen (connecting to list the tools when none is known yet), so
//! that an allow rule is void once the tool changes. Every change is audited.

use gatehouse_host::gate::definition::definition_hash;
use gatehouse_host::policy::{ArgumentMatch, Effect, Pattern, Rule, RuleView};
use gatehouse_host::{Host, HostError, Source};
use serde_json::json;

use crate::commands::connection::Connection;
use crate::output;
use crate::policy_args::{Decision, OnOff, PolicyCommand, PolicySetArgs, RuleSource};

pub async fn run(host: &Host, command: PolicyCommand) -> Result<(), HostError> {
    match command {
        PolicyCommand::List { json } => list(host, json).await,
        PolicyCommand::Set(args) => set(host, args).await,
        PolicyCommand::Rm { id } => {
            host.remove_rule(&id).await?;
            say!("removed rule {id}");
            Ok(())
        }
        PolicyCommand::Trust { server, setting } => {
            let trust = matches!(setting, OnOff::On);
            host.set_trust_read_only(&server, trust).await?;
            say!(
                "{server}: read-only hints are {}trusted",
                if trust { "" } else { "not " }
            );
            Ok(())
        }
    }
}

async fn list(host: &Host, json: bool) -> Result<(), HostError> {
    let rules = host.rules().await?;
    if json {
        return output::print_json(&json!({ "rules": rules }));
    }
    if rules.is_empty() {
        say!("no rules: a person's own calls are allowed, anything else asks");
        return Ok(());
    }
    let rows: Vec<[String; 7]> = rules.iter().map(row).collect();
    output::print_table(
        [
            "ID", "SERVER", "TOOL", "SOURCE", "CLIENT", "WHEN", "DECISION",
        ],
        &rows,
    );
    Ok(())
}

fn row(rule: &RuleView) -> [String; 7] {
    let when = match &rule.argument {
        Some(a) => describe_argument(a),
        None => String::new(),
    };
    let decision = if rule.stale {
        format!("{} (stale: the tool changed)", rule.decision.as_str())
    } else {
        rule.decision.as_str().to_owned()
    };
    [
        rule.id.clone(),
        rule.server.clone().unwrap_or_else(|| "*".into()),
        rule.tool.clone().unwrap_or_else(|| "*".into()),
        rule.source.map_or("*", Source::as_str).to_owned(),
        rule.client.clone().unwrap_or_else(|| "*".into()),
        when,
        decision,
    ]
}

fn describe_argument(argument: &ArgumentMatch) -> String {
    let (how, pattern) = match &argument.pattern {
        Pattern::Glob(g) => ("glob", g),
        Pattern::Regex(r) => ("regex", r),
    };
    let relation = if argument.outside {
        "outside"
    } else {
        "matches"
    };
    format!("{} {relation} {how} {pattern}", argument.pointer)
}

/// Splits `POINTER=PATTERN`.
fn split(text: &str) -> Result<(String, String), HostError> {
    text.split_once('=')
        .map(|(p, v)| (p.to_owned(), v.to_owned()))
        .ok_or_else(|| HostError::Validation(format!("`{text}` is not POINTER=PATTERN")))
}

async fn set(host: &Host, args: PolicySetArgs) -> Result<(), HostError> {
    // `--client` implies `--source gateway` (main refuses it with another source as a usage
    // error before this runs).
    let source = args
        .rule_source()
        .map_err(|usage| HostError::Validation(usage.to_string()))?
        .map(|source| match source {
            RuleSource::User => Source::User,
            RuleSource::Server => Source::Server,
            RuleSource::App => Source::App,
            RuleSource::Model => Source::Model,
            RuleSource::Gateway => Source::Gateway,
        });
    let server = if args.server == "*" {
        if args.tool.is_some() {
            return Err(HostError::Validation(
                "a rule for a tool must name its server".into(),
            ));
        }
        None
    } else {
        Some(host.server(&args.server).await?.config)
    };
    let argument = match (&args.arg, &args.arg_regex) {
        (Some(glob), _) => {
            let (pointer, pattern) = split(glob)?;
            Some(ArgumentMatch {
                pointer,
                pattern: Pattern::Glob(pattern),
                outside: args.outside,
            })
        }
        (None, Some(regex)) => {
            let (pointer, pattern) = split(regex)?;
            Some(ArgumentMatch {
                pointer,
                pattern: Pattern::Regex(pattern),
                outside: args.outside,
            })
        }
        (None, None) => None,
    };
    let definition_hash = match (&server, &args.tool) {
        (Some(config), Some(tool)) => {
            Some(current_definition(host, &config.name, &config.id, tool).await?)
        }
        _ => None,
    };
    let rule = Rule {
        id: String::new(),
        server: server.as_ref().map(|s| s.id.clone()),
        tool: args.tool.clone(),
        argument,
        effect: match args.decision {
            Decision::Allow => Effect::Allow,
            Decision::Ask => Effect::Ask,
            Decision::Deny => Effect::Deny,
        },
        definition_hash,
        source,
        client: args.client.clone(),
    };
    let added = host.add_rule(rule).await?;
    say!("added rule {}", added.id);
    Ok(())
}

/// The hash of the tool's definition as last seen, listing the server's tools first if none
/// is known.
async fn current_definition(
    host: &Host,
    server: &str,
    server_id: &str,
    tool: &str,
) -> Result<String, HostError> {
    if let Some((hash, _)) = host.policy().latest_definition(server_id, tool).await? {
        return Ok(hash);
    }
    let connection = Connection::open(host, server).await?;
    let listed = connection.list_tools().await;
    let page = connection.close(listed).await?;
    page.items
        .iter()
        .find(|t| t.name == tool)
        .map(definition_hash)
        .ok_or_else(|| HostError::Validation(format!("`{server}` offers no tool `{tool}`")))
}
