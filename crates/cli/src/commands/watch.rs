//! `gatehouse watch <server>`: print the server's change notifications as they come, until
//! Ctrl-C (or `--count` of them). A 2026-07-28 server is asked with `subscriptions/listen` for
//! every list change it advertises and the `--resource` updates, and the subscription is
//! reopened with backoff when its stream ends; an older server is subscribed to the resources
//! with `resources/subscribe` and its list changes arrive on their own. Status lines go to
//! stderr, one notification per line to stdout (`--json`: one JSON object per line).

use gatehouse_host::protocol::{Client, Era, ListenerEvent, NotificationFilter};
use gatehouse_host::{Host, HostError};
use serde_json::{Value, json};

use crate::args::WatchArgs;
use crate::commands::connection::Connection;
use crate::ctrl_c::interrupted;
use crate::notices::{NoticeInlet, notice_queue};

pub async fn run(host: &Host, args: WatchArgs) -> Result<(), HostError> {
    let (notices, received) = notice_queue();
    let connection = Connection::open_with(host, &args.server, Some(notices)).await?;
    let watched = watch(connection.client(), &args, received).await;
    connection.close(watched).await
}

async fn watch(
    client: &Client,
    args: &WatchArgs,
    mut pushed: NoticeInlet,
) -> Result<(), HostError> {
    let mut listener = match client.era() {
        Era::Modern => Some(gatehouse_host::protocol::Listener::new(
            NotificationFilter::all_lists(args.resources.clone()),
        )),
        Era::Legacy => {
            for uri in &args.resources {
                client.subscribe(uri).await?;
            }
            say_err!(
                "watching {} (pushed notifications; Ctrl-C to stop)",
                args.server
            );
            None
        }
    };
    let mut shown = 0;
    loop {
        let (method, params) = tokio::select! {
            event = next_event(client, listener.as_mut()) => match event {
                ListenerEvent::Notification { method, params } => (method, params),
                ListenerEvent::Opened(agreed) => {
                    say_err!("watching {}: {} (Ctrl-C to stop)", args.server, describe(&agreed));
                    continue;
                }
                ListenerEvent::Lost { reason, retry_in } => {
                    say_err!("the subscription ended ({reason}); reopening in {:.1} s", retry_in.as_secs_f64());
                    continue;
                }
                ListenerEvent::Refused { reason } => {
                    return Err(HostError::Unsupported(format!(
                        "`{}` takes no subscription: {reason}",
                        args.server
                    )));
                }
            },
            Some(notice) = pushed.recv() => notice,
            reason = client.wait_closed() => {
                return Err(HostError::Unsupported(format!("the connection ended: {reason}")));
            }
            () = interrupted() => return Ok(()),
        };
        if method == "notifications/message" || method == "notifications/progress" {
            continue;
        }
        let dropped = pushed.take_dropped();
        // Writing to a terminal or pipe nobody reads blocks. Off the worker's other tasks, so
        // the connection keeps reading the server meanwhile (a blocked worker would hold the
        // task it woke last, the reader, where no other worker may take it).
        tokio::task::block_in_place(|| {
            if dropped > 0 {
                say_err!(
                    "{dropped} notifications came faster than they could be shown and were dropped"
                );
            }
            print_notice(&method, params.as_ref(), args.json);
        });
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

async fn next_event(
    client: &Client,
    listener: Option<&mut gatehouse_host::protocol::Listener>,
) -> ListenerEvent {
    match listener {
        Some(listener) => listener.next(client).await,
        None => std::future::pending().await,
    }
}

/// What a subscription carries, in words.
fn describe(filter: &NotificationFilter) -> String {
    let mut parts = Vec::new();
    for (on, what) in [
        (filter.tools_list_changed, "tool list"),
        (filter.prompts_list_changed, "prompt list"),
        (filter.resources_list_changed, "resource list"),
    ] {
        if on {
            parts.push(what.to_owned());
        }
    }
    parts.extend(filter.resource_subscriptions.iter().cloned());
    if parts.is_empty() {
        "nothing the server agreed to".to_owned()
    } else {
        parts.join(", ")
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
