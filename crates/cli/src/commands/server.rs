//! `gatehouse server …`: add, list, remove, enable and disable server configurations.

use std::path::Path;

use gatehouse_host::{
    Host, HostError, OAuthClientSettings, OAuthGrant, ServerConfig, ServerInput, ServerSpec,
    StopGrace,
};

use crate::output;
use crate::server_args::{
    AddArgs, IDP_CLIENT_SECRET_ENV, OAUTH_CLIENT_SECRET_ENV, OAuthGrantArg, ServerCommand,
};

pub async fn run(host: &Host, command: ServerCommand) -> Result<(), HostError> {
    match command {
        ServerCommand::Add(args) => {
            let config = host
                .add_server(input_from(*args, host.default_stop_grace().await?)?)
                .await?
                .config;
            say!("added server `{}` ({})", config.name, config.spec.kind());
            tell_withheld_roots(&config).await;
        }
        ServerCommand::List { json } => {
            let servers = host.server_configs().await?;
            if json {
                output::print_json(&servers)?;
            } else {
                print_table(&servers);
            }
        }
        ServerCommand::Remove { name } => {
            let removed = host.remove_server(&name).await?;
            say!("removed server `{}`", removed.name);
        }
        ServerCommand::Enable { name } => {
            let view = host.set_enabled(&name, true).await?;
            say!("enabled server `{}`", view.config.name);
        }
        ServerCommand::Disable { name } => {
            let view = host.set_enabled(&name, false).await?;
            say!("disabled server `{}`", view.config.name);
        }
    }
    Ok(())
}

/// The client secret `--oauth-client-secret` asks for, from its environment variable (never
/// from the command line, where other users could read it).
fn secret_from_env(wanted: bool, flag: &str, var: &str) -> Result<Option<String>, HostError> {
    if !wanted {
        return Ok(None);
    }
    match std::env::var(var) {
        Ok(secret) if !secret.trim().is_empty() => Ok(Some(secret)),
        _ => Err(HostError::Validation(format!(
            "{flag} takes the secret from {var}, which is not set"
        ))),
    }
}

fn input_from(args: AddArgs, defaults: StopGrace) -> Result<ServerInput, HostError> {
    let roots = args
        .roots
        .iter()
        .map(|r| absolute_root(r))
        .collect::<Result<Vec<_>, _>>()?;
    let spec = match (args.command, args.url) {
        (Some(command), _) => ServerSpec::Stdio {
            command,
            args: args.args,
            env: args.env.into_iter().chain(args.secret_env).collect(),
            cwd: args.cwd.as_deref().map(absolute).transpose()?,
            stop: stop_grace(args.stop_grace, args.term_grace, defaults),
        },
        (None, Some(url)) => ServerSpec::Http {
            url,
            transport: args.transport.unwrap_or_default(),
            headers: args
                .headers
                .into_iter()
                .chain(args.secret_headers)
                .collect(),
            oauth: OAuthClientSettings {
                issuer: args.oauth_issuer,
                client_id: args.oauth_client_id,
                client_secret: secret_from_env(
                    args.oauth_client_secret,
                    "--oauth-client-secret",
                    OAUTH_CLIENT_SECRET_ENV,
                )?,
                client_metadata_url: args.oauth_client_metadata_url,
                grant: match args.oauth_grant {
                    Some(OAuthGrantArg::ClientCredentials) => OAuthGrant::ClientCredentials,
                    Some(OAuthGrantArg::JwtBearer) => OAuthGrant::JwtBearer,
                    Some(OAuthGrantArg::EnterpriseManaged) => OAuthGrant::EnterpriseManaged,
                    Some(OAuthGrantArg::AuthorizationCode) | None => OAuthGrant::AuthorizationCode,
                },
                private_key: args
                    .oauth_private_key_file
                    .as_deref()
                    .map(|path| {
                        std::fs::read_to_string(path).map_err(|e| {
                            HostError::Validation(format!(
                                "cannot read the private key {}: {e}",
                                path.display()
                            ))
                        })
                    })
                    .transpose()?,
                // Only the path is kept: the token in it rotates and is read when needed.
                assertion_file: args
                    .oauth_assertion_file
                    .as_deref()
                    .map(absolute)
                    .transpose()?,
                idp_issuer: args.idp_issuer,
                idp_client_id: args.idp_client_id,
                idp_client_secret: secret_from_env(
                    args.idp_client_secret,
                    "--idp-client-secret",
                    IDP_CLIENT_SECRET_ENV,
                )?,
            },
        },
        (None, None) => return Err(HostError::Validation("give --command or --url".to_owned())),
    };
    Ok(ServerInput {
        name: args.name,
        enabled: !args.disabled,
        roots,
        spec,
    })
}

/// The stop waits given with `--stop-grace` and `--term-grace` (milliseconds), the engine's
/// default stop graces (`gatehouse settings`) for the others; the registry checks their range.
fn stop_grace(stdin_ms: Option<u32>, term_ms: Option<u32>, defaults: StopGrace) -> StopGrace {
    StopGrace {
        stdin_ms: stdin_ms.unwrap_or(defaults.stdin_ms),
        term_ms: term_ms.unwrap_or(defaults.term_ms),
    }
}

/// Says which of the server's roots it would not be given now, and why (a root that does not
/// exist yet is kept, and given once it does).
async fn tell_withheld_roots(config: &ServerConfig) {
    let configured = config.roots.clone();
    let Ok(exposure) =
        tokio::task::spawn_blocking(move || gatehouse_host::roots::expose(&configured)).await
    else {
        return;
    };
    for root in exposure.withheld {
        say_err!(
            "note: the root {} is not given to `{}` for now: {}",
            root.uri,
            config.name,
            root.why
        );
    }
}

/// Makes a `--root` absolute against the current directory, with `.` and `..` resolved as the
/// shell would, so the config works from anywhere.
fn absolute_root(dir: &Path) -> Result<String, HostError> {
    let absolute = absolute(dir)?;
    gatehouse_host::fs_path::lexical(Path::new(&absolute))
        .map(|p| p.display().to_string())
        .map_err(|e| HostError::Validation(format!("invalid root {}: {e}", dir.display())))
}

/// Makes a `--cwd` or `--root` absolute against the current directory, so the config works
/// from anywhere.
fn absolute(dir: &Path) -> Result<String, HostError> {
    std::path::absolute(dir)
        .map(|p| p.display().to_string())
        .map_err(|e| HostError::Validation(format!("invalid directory {}: {e}", dir.display())))
}

fn print_table(servers: &[ServerConfig]) {
    if servers.is_empty() {
        say!("no servers yet; add one with `gatehouse server add <name> --command <cmd>`");
        return;
    }
    let rows: Vec<[String; 4]> = servers
        .iter()
        .map(|s| {
            let state = if s.enabled { "enabled" } else { "disabled" };
            [
                s.name.clone(),
                s.spec.kind().to_owned(),
                state.to_owned(),
                s.spec.summary(),
            ]
        })
        .collect();
    output::print_table(["NAME", "KIND", "STATE", "TARGET"], &rows);
}
