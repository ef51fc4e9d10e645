//! `gatehouse clients list|add|remove|profile|token create|token revoke` and `gatehouse gateway http
//! on|off|status`: the gateway's clients, their tokens (kept only in the OS keyring, printed
//! once when created), and whether the running engine serves the HTTP endpoint. `clients show`
//! and `clients profile` are in [`super::client_profile`].

use gatehouse_host::{Host, HostError};
use serde_json::json;

use crate::clients_args::{ClientsCommand, GatewayCommand, HttpCommand, TokenCommand};
use crate::output;

pub async fn run(host: &Host, command: ClientsCommand) -> Result<(), HostError> {
    let clients = host.clients();
    match command {
        ClientsCommand::List { json } => {
            let list = clients.list().await?;
            if json {
                return output::print_json(&json!({ "clients": list }));
            }
            if list.is_empty() {
                say!("no clients (add one with `gatehouse clients add NAME`)");
                return Ok(());
            }
            let rows: Vec<[String; 4]> = list
                .iter()
                .map(|c| {
                    [
                        c.name.clone(),
                        c.created_at.clone(),
                        c.last_seen.clone().unwrap_or_else(|| "never".into()),
                        match &c.token_created_at {
                            Some(at) => format!("created {at}"),
                            None => "none".into(),
                        },
                    ]
                })
                .collect();
            output::print_table(["NAME", "ADDED", "LAST SEEN", "TOKEN"], &rows);
            Ok(())
        }
        ClientsCommand::Add { name } => {
            clients.add(&name).await?;
            say!(
                "added client {name}; create its token with `gatehouse clients token create {name}`"
            );
            Ok(())
        }
        ClientsCommand::Remove { name } => {
            clients.remove(&name).await?;
            say!("removed client {name} and its token");
            Ok(())
        }
        ClientsCommand::Show { name, json } => super::client_profile::show(host, &name, json).await,
        ClientsCommand::Profile(args) => super::client_profile::profile(host, args).await,
        ClientsCommand::Token(TokenCommand::Create { name }) => {
            let token = clients.create_token(&name).await?;
            // The one place the token is shown: on stdout, alone on its line, for a script.
            say!("{}", token.expose());
            say_err!(
                "the token of client {name}: shown once, kept only in the OS keyring; \
                 the agent sends it as `Authorization: Bearer TOKEN` to {}",
                host.gateway_http().await?.url()
            );
            Ok(())
        }
        ClientsCommand::Token(TokenCommand::Revoke { name }) => {
            clients.revoke_token(&name).await?;
            say!("revoked the token of client {name}");
            Ok(())
        }
    }
}

pub async fn gateway(host: &Host, command: GatewayCommand) -> Result<(), HostError> {
    let GatewayCommand::Http(command) = command;
    match command {
        HttpCommand::On { port } => {
            let settings = host.set_gateway_http(true, port).await?;
            say!(
                "the gateway's HTTP endpoint is on: {} (served by the running engine: the app or `gatehouse serve`)",
                settings.url()
            );
        }
        HttpCommand::Off => {
            host.set_gateway_http(false, None).await?;
            say!("the gateway's HTTP endpoint is off");
        }
        HttpCommand::Status { json } => {
            let settings = host.gateway_http().await?;
            if json {
                return output::print_json(&json!({
                    "enabled": settings.enabled,
                    "port": settings.port,
                    "url": settings.url(),
                }));
            }
            let state = if settings.enabled { "on" } else { "off" };
            say!("the gateway's HTTP endpoint is {state}: {}", settings.url());
        }
    }
    Ok(())
}
