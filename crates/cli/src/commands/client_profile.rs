//! `gatehouse clients show NAME` (a client's profile, token state, last seen and recent calls)
//! and `gatehouse clients profile NAME|--default ...` (which servers and tools it sees, whether
//! resources and prompts are exposed, its limits; several changes in one command, all or none).

use gatehouse_host::gateway::profile_store::ClientProfile;
use gatehouse_host::gateway::profiles::{ProfileChange, ProfileSetting, ServerSwitch, ToolSwitch};
use gatehouse_host::{Host, HostError};

use crate::clients_args::ProfileArgs;
use crate::output;

pub async fn show(host: &Host, name: &str, json: bool) -> Result<(), HostError> {
    let view = host.client_view(name).await?;
    if json {
        return output::print_json(&view);
    }
    let client = &view.client;
    say!("client {}", client.name);
    say!("  added       {}", client.created_at);
    say!(
        "  last seen   {}",
        client.last_seen.as_deref().unwrap_or("never (over HTTP)")
    );
    say!(
        "  token       {}",
        match &client.token_created_at {
            Some(at) => format!("created {at}"),
            None => "none".to_owned(),
        }
    );
    print_profile(&view.profile);
    if view.recent.is_empty() {
        say!("  recent      none");
    } else {
        say!("  recent");
        for row in &view.recent {
            say!(
                "    {}  {}  {}  {}",
                row.at,
                row.event.server.as_deref().unwrap_or("-"),
                row.event
                    .tool
                    .as_deref()
                    .or(row.event.method.as_deref())
                    .unwrap_or("-"),
                row.event.decision.as_deref().unwrap_or(row.outcome()),
            );
        }
    }
    Ok(())
}

pub async fn profile(host: &Host, args: ProfileArgs) -> Result<(), HostError> {
    let change = change(&args)?;
    let prefix = match args.prefix.as_deref() {
        None => None,
        Some("default") => {
            return Err(HostError::Validation(
                "--prefix is the client's own choice: on or off".to_owned(),
            ));
        }
        Some(text) => switch(text)?,
    };
    let profiles = host.client_profiles();
    let client = if args.default {
        None
    } else {
        args.name.as_deref()
    };
    // Checked before anything is changed: the whole command or none of it.
    let known = match client {
        Some(name) => Some(host.clients().get(name).await?),
        None => None,
    };
    let profile = if change.is_empty() {
        profiles.get(client).await?
    } else {
        profiles.set(client, &change).await?
    };
    let prefixed = match (client, prefix) {
        (Some(name), Some(on)) => Some(host.clients().set_prefix(name, on).await?.prefix),
        _ => known.map(|c| c.prefix),
    };
    if args.json {
        let mut value = serde_json::to_value(&profile)
            .map_err(|e| HostError::Protocol(format!("cannot encode the profile: {e}")))?;
        if let (Some(prefix), Some(fields)) = (prefixed, value.as_object_mut()) {
            fields.insert("prefix".into(), serde_json::json!(prefix));
        }
        return output::print_json(&value);
    }
    match &profile.client {
        Some(name) => say!("client {name}"),
        None => say!("the default profile"),
    }
    if let Some(prefix) = prefixed {
        say!(
            "  names       {}",
            if prefix {
                "SERVER__NAME"
            } else {
                "their own where no other server has the same (prefix off)"
            }
        );
    }
    print_profile(&profile);
    Ok(())
}

fn print_profile(profile: &ClientProfile) {
    let effective = &profile.effective;
    let on = |on: bool| if on { "on" } else { "off" };
    let hidden: Vec<&String> = effective
        .servers
        .iter()
        .filter(|(_, on)| !**on)
        .map(|(s, _)| s)
        .collect();
    say!(
        "  servers     {}",
        if hidden.is_empty() {
            "all".to_owned()
        } else {
            format!(
                "all but {}",
                hidden
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    );
    let tools: Vec<String> = effective
        .tools
        .iter()
        .flat_map(|(server, tools)| {
            tools
                .iter()
                .filter(|(_, on)| !**on)
                .map(move |(tool, _)| format!("{server}/{tool}"))
        })
        .collect();
    if !tools.is_empty() {
        say!("  tools off   {}", tools.join(", "));
    }
    say!("  resources   {}", on(effective.resources.unwrap_or(true)));
    say!("  prompts     {}", on(effective.prompts.unwrap_or(true)));
    say!("  ask person  {}", on(effective.asks_person()));
    let limits = &profile.limits;
    say!(
        "  limits      {} in flight, {} per minute, messages up to {} bytes",
        limits.max_in_flight,
        limits
            .per_minute
            .map_or_else(|| "no limit".to_owned(), |n| n.to_string()),
        limits.max_message_bytes
    );
}

/// The change the flags ask for; a malformed flag refuses the whole command.
fn change(args: &ProfileArgs) -> Result<ProfileChange, HostError> {
    let mut change = ProfileChange {
        max_in_flight: args.max_in_flight,
        per_minute: args.per_minute,
        max_message_bytes: args.max_message_bytes,
        ..ProfileChange::default()
    };
    if args.default_limits {
        change.reset.push(ProfileSetting::Limits);
    }
    for (setting, value) in [
        (ProfileSetting::Resources, &args.resources),
        (ProfileSetting::Prompts, &args.prompts),
        (ProfileSetting::AskPerson, &args.ask_person),
    ] {
        let Some(text) = value else { continue };
        match (switch(text)?, setting) {
            (None, setting) => change.reset.push(setting),
            (on, ProfileSetting::Resources) => change.resources = on,
            (on, ProfileSetting::Prompts) => change.prompts = on,
            (on, _) => change.ask_person = on,
        }
    }
    for pair in args.server.chunks(2) {
        let [server, setting] = pair else { continue };
        match switch(setting)? {
            Some(on) => change.servers.push(ServerSwitch {
                server: server.clone(),
                on,
            }),
            None => change.reset.push(ProfileSetting::Server {
                server: server.clone(),
            }),
        }
    }
    for pair in args.tool.chunks(2) {
        let [named, setting] = pair else { continue };
        let Some((server, tool)) = named.split_once('/') else {
            return Err(HostError::Validation(format!(
                "`{named}` is not SERVER/TOOL (for example fs/write_file)"
            )));
        };
        let (server, tool) = (server.to_owned(), tool.to_owned());
        match switch(setting)? {
            Some(on) => change.tools.push(ToolSwitch { server, tool, on }),
            None => change.reset.push(ProfileSetting::Tool { server, tool }),
        }
    }
    Ok(change)
}

/// `on`, `off`, or `default` (None: the setting is handed back to the profile below).
fn switch(text: &str) -> Result<Option<bool>, HostError> {
    match text {
        "on" => Ok(Some(true)),
        "off" => Ok(Some(false)),
        "default" => Ok(None),
        other => Err(HostError::Validation(format!(
            "`{other}` is not on, off or default"
        ))),
    }
}
