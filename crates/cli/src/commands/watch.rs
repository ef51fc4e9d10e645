//! `gatehouse watch <server>`: print the server's change notifications as they come, until
//! Ctrl-C (or `--count` of them). How a server is watched (a 2026-07-28 server with
//! `subscriptions/listen`, reopened with backoff; an older one with `resources/subscribe` and
//! the list changes it pushes) is [`gatehouse_host::watching`], the same in-process and on the
//! engine's live session. Status lines go to stderr, one notification per line to stdout
//! (`--json`: one JSON object per line).

use gatehouse_host::HostError;
use gatehouse_host::control::protocol::WatchParams;
use gatehouse_host::watching::{self, WatchEvent};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::args::WatchArgs;
use crate::commands::connection::Connection;
use crate::ctrl_c::interrupted;
use crate::door::Door;

/// How many events wait between the watch and the terminal (the watchers' channel before it
/// holds [`watching::WATCHERS`]).
pub const WATCH_EVENTS: usize = 64;

pub async fn run(door: &Door<'_>, args: WatchArgs) -> Result<(), HostError> {
    let (events, received) = mpsc::channel(WATCH_EVENTS);
    match door {
        Door::Attached(engine) => {
            let params = WatchParams {
                server: args.server.clone(),
                resources: args.resources.clone(),
            };
            tokio::select! {
                watched = engine.watch(params, events, std::future::pending()) => watched,
                shown = show(&args, received) => shown,
            }
        }
        Door::InProcess(host) => {
            let watchers = watching::watchers();
            let pushed = watchers.subscribe();
            let connection = Connection::open_watched(host, &args.server, watchers).await?;
            let watched = tokio::select! {
                watched = watching::watch(connection.client(), connection.server(), &args.resources, pushed, events) => watched,
                shown = show(&args, received) => shown,
            };
            connection.close(watched).await
        }
    }
}

/// Shows the watch's events until Ctrl-C, `--count` notifications, the reader of stdout going
/// away, or the watch ending.
pub async fn show(
    args: &WatchArgs,
    mut received: mpsc::Receiver<WatchEvent>,
) -> Result<(), HostError> {
    let mut shown = 0;
    // One listener for the whole watch: a Ctrl-C that comes while a line is printed is not lost.
    let mut interrupt = std::pin::pin!(interrupted());
    loop {
        let event = tokio::select! {
            event = received.recv() => match event {
                Some(event) => event,
                None => return Ok(()),
            },
            () = &mut interrupt => return Ok(()),
        };
        let (method, params) = match event {
            WatchEvent::Watching { what } => {
                say_err!("watching {}: {what} (Ctrl-C to stop)", args.server);
                continue;
            }
            WatchEvent::Lost {
                reason,
                retry_in_ms,
            } => {
                say_err!(
                    "the subscription ended ({reason}); reopening in {:.1} s",
                    retry_in_ms as f64 / 1000.0
                );
                continue;
            }
            WatchEvent::Dropped { count } => {
                say_err!(
                    "{count} notifications came faster than they could be shown and were dropped"
                );
                continue;
            }
            WatchEvent::Notification { method, params } => (method, params),
        };
        // Writing to a terminal or pipe nobody reads blocks. Off the worker's other tasks, so
        // the connection keeps reading the server meanwhile (a blocked worker would hold the
        // task it woke last, the reader, where no other worker may take it).
        tokio::task::block_in_place(|| print_notice(&method, params.as_ref(), args.json));
        if crate::stdout::closed() {
            // The reader is gone: stop watching and close the server.
            return Ok(());
        }
        shown += 1;
        if args.count.is_some_and(|count| shown >= count) {
            return Ok(());
        }
    }
}

fn print_notice(method: &str, params: Option<&Value>, json: bool) {
    if json {
        let line = json!({ "method": method, "params": params }).to_string();
        crate::stdout::line(&crate::terminal_text::json_escaped(&line));
        return;
    }
    let name = method.strip_prefix("notifications/").unwrap_or(method);
    match params.and_then(|p| p.get("uri")).and_then(Value::as_str) {
        Some(uri) => say!("{name} {uri}"),
        None => say!("{name}"),
    }
}
