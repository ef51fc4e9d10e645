//! `gatehouse`: the Gatehouse engine headless, on the same database as the desktop app.
//!
//! Exit status: 0 on success, 1 on an operational error (one line on stderr), 2 on a usage error.

mod args;
mod commands;
mod output;

use std::process::ExitCode;

use clap::Parser;
use gatehouse_host::{Host, HostError, HostOptions};

use args::{Cli, Command};

fn main() -> ExitCode {
    let cli = Cli::parse();
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
    match runtime.block_on(run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(&e),
    }
}

async fn run(cli: Cli) -> Result<(), HostError> {
    if let Command::ConformanceClient { url } = &cli.command {
        return commands::conformance::run(url).await;
    }
    let host = Host::open(HostOptions {
        data_dir: cli.data_dir,
        live_sessions: false,
        ..Default::default()
    })
    .await?;
    let result = match cli.command {
        Command::Server(command) => commands::server::run(&host, command).await,
        Command::Tools { server, json } => commands::tools::run(&host, &server, json).await,
        Command::ConformanceClient { .. } => Ok(()),
    };
    host.shutdown().await;
    result
}

fn fail(error: &HostError) -> ExitCode {
    let message = error.to_string().replace('\n', " ");
    eprintln!("error: {message}");
    ExitCode::from(1)
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
