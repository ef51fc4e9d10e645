//! `gatehouse agents pause|resume|status [--json]`: every agent paused at once in the running
//! engine (the app or `gatehouse serve`, which serves the agents): while paused, each request an
//! agent makes that the policy would let through is asked about instead (deny rules still deny).
//! Pausing and resuming are on the engine's audit log as the person's. The switch lives in the
//! engine, so `pause` and `resume` need one running; with none, `status` says so (exit 0).
//! `--json`: `{"running": bool, "paused": bool, "changed": bool}`.

use std::path::Path;

use gatehouse_host::HostError;
use gatehouse_host::control::protocol::AgentsPauseState;
use serde_json::json;

use crate::agents_pause_args::AgentsPause;
use crate::commands::engine::attach;
use crate::output;

pub async fn run(data_dir: Option<&Path>, command: &AgentsPause) -> Result<(), HostError> {
    let (wanted, json) = match *command {
        AgentsPause::Pause { json } => (Some(true), json),
        AgentsPause::Resume { json } => (Some(false), json),
        AgentsPause::Status { json } => (None, json),
    };
    let Some(client) = attach(data_dir).await? else {
        if wanted.is_none() {
            if json {
                return output::print_json(
                    &json!({ "running": false, "paused": false, "changed": false }),
                );
            }
            say!("no engine runs on this data directory: no agent is served, none is paused");
            return Ok(());
        }
        return Err(HostError::NotConnected(
            "no engine runs on this data directory; agents are served by the app or `gatehouse \
             serve`: start one, then pause or resume them there"
                .into(),
        ));
    };
    let state = match wanted {
        Some(paused) => client.set_agents_paused(paused).await?,
        None => client.agents_paused().await?,
    };
    show(&state, json)
}

fn show(state: &AgentsPauseState, json: bool) -> Result<(), HostError> {
    if json {
        return output::print_json(
            &json!({ "running": true, "paused": state.paused, "changed": state.changed }),
        );
    }
    let now = if state.paused {
        "agents paused: each request the policy would let through is asked about"
    } else {
        "agents running: the policy decides their requests"
    };
    let already = if state.changed { "" } else { " (as before)" };
    say!("{now}{already}");
    Ok(())
}
