//! `gatehouse`: the Gatehouse engine headless, on the same database as the desktop app.
//!
//! Exit status: 0 on success, 1 on an operational error (one line on stderr), 2 on a usage error,
//! 3 when a called tool reported an error (`isError`), 4 when a policy rule denied the call,
//! 130 when interrupted with Ctrl-C, 141 when the reader of stdout closed it early (`| head`;
//! see [`stdout`]).

#[macro_use]
mod terminal_text;
mod agent_args;
mod agents_pause_args;
mod approvals_args;
mod args;
mod audit_args;
mod clients_args;
mod commands;
mod confirm;
mod ctrl_c;
mod demo_server;
mod door;
mod finish;
mod import_args;
mod output;
mod policy_args;
mod progress;
mod server_args;
mod stdout;
mod terminal_approvals;
mod terminal_form;
mod terminal_sampling;
mod terminal_tool_call;

use std::process::ExitCode;

use clap::Parser;
use gatehouse_host::{Host, HostError, HostOptions};

use args::{Cli, Command};

/// mimalloc instead of glibc's allocator: an engine's call allocates and frees many small
/// blocks across its worker threads, where glibc's arenas spent a fifth of `gatehouse serve`'s
/// CPU (merging free blocks, `malloc_consolidate`); audited calls through `gatehouse mcp` went
/// up by a fifth to a third (docs/performance.md, "The gateway's requests and the engine's
/// allocator").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use door::Door;
use finish::Finish;

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Command::Policy(policy_args::PolicyCommand::Set(set)) = &cli.command
        && let Err(usage) = set.rule_source()
    {
        usage.exit();
    }
    init_logging();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            return fail(&HostError::Io {
                context: "cannot start the runtime".into(),
                source: e,
            });
        }
    };
    // The command runs as a task on a worker thread, not in `block_on` on this thread: the
    // connection's tasks then wake each other without cross-thread hand-offs (see
    // docs/performance.md).
    let ended = runtime.block_on(runtime.spawn(run(cli)));
    if stdout::closed() {
        // What went wrong after stdout closed is of no interest to a reader who is gone.
        return match stdout::failure() {
            Some(failure) => fail(&HostError::Io {
                context: "cannot write the output".into(),
                source: std::io::Error::other(failure),
            }),
            None => ExitCode::from(stdout::CLOSED_PIPE_STATUS),
        };
    }
    match ended {
        Ok(Ok(finish)) => finish.exit_code(),
        Ok(Err(e)) => fail(&e),
        Err(e) => fail(&HostError::Io {
            context: "the command failed".into(),
            source: std::io::Error::other(e),
        }),
    }
}

async fn run(cli: Cli) -> Result<Finish, HostError> {
    if let Command::ConformanceClient { url } = &cli.command {
        return commands::conformance::run(url)
            .await
            .map(|()| Finish::Success);
    }
    match &cli.command {
        Command::Serve => return commands::engine::serve(cli.data_dir).await,
        Command::Status { json } => return commands::engine::status(cli.data_dir, *json).await,
        Command::Mcp { client } => return commands::mcp::run(cli.data_dir, client.clone()).await,
        // Reads the agents' files only: no engine, database or keyring.
        Command::Agents {
            pause: Some(command),
            ..
        } => {
            return commands::agents_pause::run(cli.data_dir.as_deref(), command)
                .await
                .map(|()| Finish::Success);
        }
        Command::Agents {
            pause: None,
            project,
            gateway_port,
            json,
        } => {
            return commands::agents::run(project.as_deref(), *gateway_port, *json)
                .map(|()| Finish::Success);
        }
        Command::Approvals(command) => {
            return commands::approvals::run(cli.data_dir.as_deref(), command)
                .await
                .map(|()| Finish::Success);
        }
        // A server of its own on stdin/stdout: no engine, database or keyring.
        Command::DemoServer => {
            return demo_server::run()
                .await
                .map(|()| Finish::Success)
                .map_err(|source| HostError::Io {
                    context: "the demo server's stdio".into(),
                    source,
                });
        }
        // The session's autostart entry only: no engine, database or keyring.
        Command::Autostart(command) => {
            return commands::autostart::run(command).map(|()| Finish::Success);
        }
        _ => {}
    }
    // With an engine running (the app, `gatehouse serve`), what it serves is asked of it.
    if !cli.standalone
        && served(&cli.command)
        && let Some(client) = commands::engine::attach(cli.data_dir.as_deref()).await?
    {
        return match cli.command {
            Command::Call(args) => commands::engine::call(&client, args).await,
            other => run_served(&Door::Attached(&client), other)
                .await
                .map(|()| Finish::Success),
        };
    }
    let data_dir = cli.data_dir.clone();
    let host = Host::open(HostOptions {
        data_dir: cli.data_dir,
        live_sessions: false,
        ..Default::default()
    })
    .await?;
    // What the host asks a person is asked here, when this runs on a terminal.
    let _attending = terminal_approvals::attend(&host);
    let result = match cli.command {
        Command::Call(args) => commands::call::run(&host, args).await,
        Command::Connect(args) => commands::connect::run(&host, data_dir.as_deref(), args)
            .await
            .map(|()| Finish::Success),
        other => run_command(&host, other).await.map(|()| Finish::Success),
    };
    host.shutdown().await;
    result
}

/// Whether a running engine serves the command (`call` and the commands of [`run_served`]).
fn served(command: &Command) -> bool {
    matches!(
        command,
        Command::Call(_)
            | Command::Tools { .. }
            | Command::Info { .. }
            | Command::Resources { .. }
            | Command::Templates { .. }
            | Command::Read { .. }
            | Command::Prompts { .. }
            | Command::Prompt { .. }
            | Command::Complete(_)
            | Command::Ping { .. }
            | Command::Tasks { .. }
            | Command::Watch(_)
    )
}

/// Runs a command that asks a server something, through the running engine or in-process.
async fn run_served(door: &Door<'_>, command: Command) -> Result<(), HostError> {
    match command {
        Command::Tools { server, json } => commands::tools::run(door, &server, json).await,
        Command::Info { server, json } => commands::info::run(door, &server, json).await,
        Command::Resources { server, json } => commands::resources::list(door, &server, json).await,
        Command::Templates { server, json } => {
            commands::resources::templates(door, &server, json).await
        }
        Command::Read { server, uri, json } => {
            commands::resources::read(door, &server, &uri, json).await
        }
        Command::Prompts { server, json } => commands::prompts::list(door, &server, json).await,
        Command::Prompt {
            server,
            name,
            args,
            json,
        } => commands::prompts::get(door, &server, &name, args.unwrap_or_default(), json).await,
        Command::Complete(args) => commands::complete::run(door, args).await,
        Command::Ping { server } => commands::ping::run(door, &server).await,
        Command::Tasks { server, json } => commands::tasks::run(door, &server, json).await,
        Command::Watch(args) => commands::watch::run(door, args).await,
        _ => Err(HostError::Validation(
            "this command is not one a running engine serves".to_owned(),
        )),
    }
}

/// Runs a command that either succeeds or fails: every one but `call`.
async fn run_command(host: &Host, command: Command) -> Result<(), HostError> {
    match command {
        Command::Server(command) => commands::server::run(host, command).await,
        Command::Logs(args) => commands::logs::run(host, args).await,
        Command::Audit(command) => commands::audit::run(host, command).await,
        Command::Policy(command) => commands::policy::run(host, command).await,
        Command::Grants(command) => commands::grants::run(host, command).await,
        Command::Auth(command) => commands::auth::run(host, command).await,
        Command::AppSites(command) => commands::app_sites::run(host, command).await,
        Command::Settings(command) => commands::settings::run(host, command).await,
        Command::Clients(command) => commands::clients::run(host, command).await,
        Command::Gateway(command) => commands::clients::gateway(host, command).await,
        Command::Import(args) => commands::import::run(host, args).await,
        Command::Call(_)
        | Command::ConformanceClient { .. }
        | Command::Serve
        | Command::Mcp { .. }
        | Command::Status { .. }
        | Command::Agents { .. }
        | Command::Connect(_)
        | Command::Approvals(_)
        | Command::DemoServer
        | Command::Autostart(_) => Ok(()),
        served => run_served(&Door::InProcess(host), served).await,
    }
}

/// The longest error message shown: a server's error text, or the stderr line quoted in one,
/// can be of any length.
const MAX_ERROR_CHARS: usize = 2000;

fn fail(error: &HostError) -> ExitCode {
    let message = error.to_string().replace('\n', " ");
    say_err!(
        "error: {}",
        terminal_text::capped(&message, MAX_ERROR_CHARS)
    );
    match error {
        // The gate refused the request (a policy rule denied it).
        HostError::Denied { .. } => ExitCode::from(4),
        _ => ExitCode::from(1),
    }
}

/// Logs go to stderr; `GATEHOUSE_LOG` sets the filter (default: warnings).
fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("GATEHOUSE_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        .init();
}
