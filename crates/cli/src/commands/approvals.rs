//! `gatehouse approvals list|answer|watch`: what the running engine (the app or `gatehouse
//! serve`) asks a person, answered without a window. `list` shows the waiting requests, `answer`
//! gives one the dialog's answer, and `watch` is a console on the terminal that shows each
//! request as the dialog would ([`crate::terminal_approvals`]) and answers it there. The first
//! answer wins, wherever it is given; a console showing a request answered elsewhere says so.
//! The requests live in the engine, so each needs one running: with none, `list` says nothing
//! can wait and the others fail saying how to start one.

use std::path::Path;
use std::sync::Arc;

use gatehouse_host::HostError;
use gatehouse_host::approvals::{Answer, PendingApproval, Question};
use gatehouse_host::control::client::ControlClient;
use gatehouse_host::control::protocol::Notice;
use serde_json::json;
use tokio::sync::mpsc;

use crate::approvals_args::ApprovalsCommand;
use crate::commands::engine::attach;
use crate::ctrl_c::interrupted;
use crate::output;
use crate::terminal_approvals::{Asking, Desk, attend_on, on_terminal};

pub async fn run(data_dir: Option<&Path>, command: &ApprovalsCommand) -> Result<(), HostError> {
    let Some(client) = attach(data_dir).await? else {
        if let ApprovalsCommand::List { json } = command {
            if *json {
                return output::print_json(&json!({ "running": false, "approvals": [] }));
            }
            say!("no engine runs on this data directory: nothing waits for an answer");
            return Ok(());
        }
        return Err(HostError::NotConnected(
            "no engine runs on this data directory, so nothing waits for an answer; start the \
             app or `gatehouse serve`"
                .into(),
        ));
    };
    match command {
        ApprovalsCommand::List { json } => list(&client, *json).await,
        ApprovalsCommand::Answer(args) => {
            let answer = args.answer().map_err(HostError::Validation)?;
            let said = answer.describe();
            client.answer_approval(&args.id, answer).await?;
            say!("{}: {said}", args.id);
            Ok(())
        }
        ApprovalsCommand::Watch => watch(client).await,
    }
}

async fn list(client: &ControlClient, json: bool) -> Result<(), HostError> {
    let pending = client.pending_approvals().await?;
    if json {
        return output::print_json(&json!({ "running": true, "approvals": pending }));
    }
    if pending.is_empty() {
        say!("nothing waits for an answer");
        return Ok(());
    }
    let rows: Vec<[String; 4]> = pending.iter().map(row).collect();
    output::print_table(["ID", "ASKED BY", "SERVER", "WHAT"], &rows);
    Ok(())
}

fn row(pending: &PendingApproval) -> [String; 4] {
    let asker = match &pending.caller {
        Some(caller) if !caller.starts_with("view ") => {
            format!("{} ({caller})", pending.source.as_str())
        }
        _ => pending.source.as_str().to_owned(),
    };
    let what = match &pending.question {
        Question::ToolCall { tool, .. } => format!("call {tool}"),
        Question::Sampling { .. } => "a model's reply (sampling)".to_owned(),
        Question::Elicitation { message, .. } => format!("a form: {message}"),
        Question::OpenUrl { url, .. } => format!("open {url}"),
        Question::Request { method, .. } => format!("run {method}"),
    };
    [
        pending.id.clone(),
        output::name(&asker),
        output::name(&pending.server),
        output::name(&what),
    ]
}

/// The engine's queue, answered from the console's own thread.
struct EngineDesk {
    client: Arc<ControlClient>,
    runtime: tokio::runtime::Handle,
}

impl Desk for EngineDesk {
    fn waiting(&self, id: &str) -> bool {
        self.runtime
            .block_on(self.client.pending_approvals())
            .is_ok_and(|pending| pending.iter().any(|p| p.id == id))
    }

    fn answer(&self, id: &str, answer: Answer) -> Result<(), HostError> {
        self.runtime
            .block_on(self.client.answer_approval(id, answer))
    }
}

/// How many of the engine's notices wait for the console.
const NOTICES: usize = 64;

async fn watch(client: ControlClient) -> Result<(), HostError> {
    if !on_terminal() {
        return Err(HostError::Validation(
            "`gatehouse approvals watch` answers at a terminal; without one, use `gatehouse \
             approvals list` and `gatehouse approvals answer`"
                .into(),
        ));
    }
    let client = Arc::new(client);
    let (notices, mut received) = mpsc::channel::<Notice>(NOTICES);
    let (to_console, asking) = mpsc::channel::<Asking>(NOTICES);
    let desk = EngineDesk {
        client: client.clone(),
        runtime: tokio::runtime::Handle::current(),
    };
    let Some(_attending) = attend_on(desk, asking) else {
        return Err(HostError::Unsupported("cannot ask at this terminal".into()));
    };
    let forward = tokio::spawn(async move {
        while let Some(notice) = received.recv().await {
            let next = match notice {
                Notice::ApprovalAsked { approval, .. } => Asking::Asked(approval),
                Notice::ApprovalAnswered { id, answer, .. } => Asking::answered(id, &answer),
                Notice::ApprovalWithdrawn { id, reason, .. } => Asking::withdrawn(id, &reason),
                Notice::Progress { .. } | Notice::Watched { .. } | Notice::GatewayEnded { .. } => {
                    continue;
                }
            };
            if to_console.send(next).await.is_err() {
                return;
            }
        }
    });
    say_err!("answering the engine's requests here (Ctrl-C to stop)");
    let watched = client.watch_approvals(notices, interrupted()).await;
    forward.abort();
    match watched {
        // Ctrl-C ends the watch: the engine's `cancelled` answer is the normal end.
        Err(e) if e.code() == gatehouse_host::ErrorCode::Cancelled => Ok(()),
        other => other,
    }
}
