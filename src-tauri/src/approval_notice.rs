//! OS notifications for requests that wait for the person while the window is closed or not
//! focused: who asks, which tool on which server; Allow once and Deny buttons where the
//! platform has them (the freedesktop notification service), and a click opens the window on
//! the dialog. Grouping and the rate limit are `notice_groups`; this is the OS side, run by one
//! task that owns the bookkeeping, fed through a bounded queue.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use gatehouse_host::Host;
use gatehouse_host::approvals::{Answer, PendingApproval, Question, Scope};
use tauri::{AppHandle, Manager};
use tokio::sync::mpsc;

use crate::apps::origins::MAIN_WEBVIEW;
use crate::notice_groups::{GroupKey, NoticeBook, NoticeStep};
use crate::tray_menu::asker;

/// Inputs waiting for the notification task at most; past that, an input is dropped with a
/// warning (the tray and the window still show every request).
const QUEUE: usize = 256;

/// What the notification task is told.
#[derive(Debug)]
pub enum NoticeInput {
    Asked(Box<PendingApproval>),
    /// Answered or withdrawn.
    Gone(String),
    /// The requests waiting now (by id): any other one timed out or its requester gave up.
    Waiting(Vec<String>),
    /// The person acted on notification `notice` (`allow`, `deny`, `default` for a click, or
    /// `__closed`).
    Acted {
        notice: u32,
        action: String,
    },
}

/// The sending side, kept by the app.
#[derive(Debug, Clone)]
pub struct Notices(mpsc::Sender<NoticeInput>);

impl Notices {
    pub fn send(&self, input: NoticeInput) {
        if let Err(e) = self.0.try_send(input) {
            tracing::warn!("a notification was dropped: {e}");
        }
    }
}

/// Starts the notification task.
pub fn start(app: AppHandle) -> Notices {
    let (sender, mut inputs) = mpsc::channel(QUEUE);
    let notices = Notices(sender);
    let own = notices.clone();
    tauri::async_runtime::spawn(async move {
        let mut book = NoticeBook::default();
        let mut asked: HashMap<String, Box<PendingApproval>> = HashMap::new();
        while let Some(input) = inputs.recv().await {
            match input {
                NoticeInput::Asked(pending) => {
                    if window_focused(&app) {
                        continue;
                    }
                    let step = book.asked(group_key(&pending), &pending.id, Instant::now());
                    let id = pending.id.clone();
                    asked.insert(id, pending);
                    if asked.len() > QUEUE {
                        // Only if answers were missed (the engine's events lagged).
                        asked.retain(|id, _| book.holds(id));
                    }
                    run_step(&app, &own, &mut book, &asked, step).await;
                }
                NoticeInput::Gone(id) => {
                    asked.remove(&id);
                    let step = book.gone(&id);
                    run_step(&app, &own, &mut book, &asked, step).await;
                }
                NoticeInput::Waiting(ids) => {
                    for id in book.ids() {
                        if !ids.contains(&id) {
                            asked.remove(&id);
                            let step = book.gone(&id);
                            run_step(&app, &own, &mut book, &asked, step).await;
                        }
                    }
                }
                NoticeInput::Acted { notice, action } => {
                    acted(&app, &mut book, notice, &action).await;
                }
            }
        }
    });
    notices
}

/// Who asks for what.
fn group_key(pending: &PendingApproval) -> GroupKey {
    GroupKey::Ask {
        who: asker(pending),
        what: match &pending.question {
            Question::ToolCall { tool, .. } => format!("{}/{tool}", pending.server),
            other => format!("{}/{}", pending.server, kind(other)),
        },
    }
}

fn kind(question: &Question) -> &'static str {
    match question {
        Question::ToolCall { .. } => "tool",
        Question::Sampling { .. } => "sampling",
        Question::Elicitation { .. } => "elicitation",
        Question::OpenUrl { .. } => "url",
        Question::Request { .. } => "request",
    }
}

/// The notification's title and text for `waiting` requests like `pending`. What a server or
/// an agent named (tools, servers, domains) is cut short and has its markup escaped: a
/// notification service may render `<b>` or links in the body.
pub fn text(pending: &PendingApproval, waiting: usize) -> (String, String) {
    let who = asker(pending);
    let server = &pending.server;
    let what = match &pending.question {
        Question::ToolCall { tool, .. } => format!("call `{tool}` on {server}"),
        Question::Sampling { .. } => format!("get a model's reply for {server}"),
        Question::Elicitation { .. } => format!("ask you for input for {server}"),
        Question::OpenUrl { domain, .. } => format!("open a page on {domain}"),
        Question::Request { method, .. } => format!("run `{method}` on {server}"),
    };
    let body = if waiting > 1 {
        format!("{who} asks {waiting} times to {what}.")
    } else {
        format!("{who} asks to {what}.")
    };
    ("Gatehouse needs your answer".to_owned(), plain(&body))
}

/// The body's longest, in characters.
const BODY_CHARS: usize = 300;

/// `text` with markup escaped and control characters as spaces, at most [`BODY_CHARS`].
fn plain(text: &str) -> String {
    let mut out = String::new();
    for (n, c) in text.chars().enumerate() {
        if n == BODY_CHARS {
            out.push('…');
            break;
        }
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

async fn run_step(
    app: &AppHandle,
    notices: &Notices,
    book: &mut NoticeBook,
    asked: &HashMap<String, Box<PendingApproval>>,
    step: NoticeStep,
) {
    match step {
        NoticeStep::Nothing => {}
        NoticeStep::Close { notice } => os::close(notice).await,
        NoticeStep::Show { key, waiting } => {
            let Some((title, body, actions)) = words(book, asked, &key, waiting) else {
                return;
            };
            if let Some(notice) = os::show(app, notices, None, &title, &body, actions).await {
                book.shown(&key, notice);
            }
        }
        NoticeStep::Update {
            key,
            notice,
            waiting,
        } => {
            if let Some((title, body, actions)) = words(book, asked, &key, waiting) {
                os::show(app, notices, Some(notice), &title, &body, actions).await;
            }
        }
    }
}

/// A group's title, text, and whether it gets Allow once and Deny (one tool call or request
/// in it, not the overflow).
fn words(
    book: &NoticeBook,
    asked: &HashMap<String, Box<PendingApproval>>,
    key: &GroupKey,
    waiting: usize,
) -> Option<(String, String, bool)> {
    if *key == GroupKey::Overflow {
        let body = if waiting == 1 {
            "1 more request waits for your answer.".to_owned()
        } else {
            format!("{waiting} more requests wait for your answer.")
        };
        return Some(("Gatehouse needs your answer".to_owned(), body, false));
    }
    // The newest waiting request of the group words it.
    let pending = book
        .requests_of(key)
        .iter()
        .rev()
        .find_map(|id| asked.get(id))?;
    let (title, body) = text(pending, waiting);
    let answerable = matches!(
        pending.question,
        Question::ToolCall { .. } | Question::Request { .. }
    );
    Some((title, body, waiting == 1 && answerable))
}

/// The person acted on a notification.
async fn acted(app: &AppHandle, book: &mut NoticeBook, notice: u32, action: &str) {
    let answer = match action {
        "allow" => Answer::Allow {
            scope: Scope::Once,
            arguments: None,
            covers: None,
        },
        "deny" => Answer::Deny {
            reason: Some("denied from a notification".to_owned()),
        },
        "__closed" => {
            book.closed(notice);
            return;
        }
        _ => {
            match book.single_request(notice) {
                Some(id) => crate::main_window::open_on_approval(app, &id),
                None => crate::main_window::open(app),
            }
            return;
        }
    };
    // Allow once and Deny answer the one request the notification stands for; if more joined
    // it meanwhile, the window decides.
    let Some(id) = book.single_request(notice) else {
        crate::main_window::open(app);
        return;
    };
    let host = app.state::<Arc<Host>>().inner().clone();
    let answered =
        tauri::async_runtime::spawn_blocking(move || host.answer_approval(&id, answer)).await;
    if !matches!(answered, Ok(Ok(()))) {
        tracing::info!("the notification's answer was not taken; opening the window");
        crate::main_window::open(app);
    }
}

fn window_focused(app: &AppHandle) -> bool {
    app.get_webview_window(MAIN_WEBVIEW)
        .and_then(|w| w.is_focused().ok())
        .unwrap_or(false)
}

/// The freedesktop notification service (Linux and the BSDs), through notify-rust: ids,
/// replacing, actions.
#[cfg(all(unix, not(target_os = "macos")))]
mod os {
    use super::{NoticeInput, Notices};
    use tauri::AppHandle;

    /// Shows (or, with `replace`, rewrites) a notification; its id, or none if the service is
    /// not there. With `actions`, Allow once and Deny buttons; a click is the default action.
    pub async fn show(
        _app: &AppHandle,
        notices: &Notices,
        replace: Option<u32>,
        title: &str,
        body: &str,
        actions: bool,
    ) -> Option<u32> {
        let (title, body) = (title.to_owned(), body.to_owned());
        let notices = notices.clone();
        let shown = tauri::async_runtime::spawn_blocking(move || {
            let mut notification = notify_rust::Notification::new();
            notification
                .appname("Gatehouse")
                .summary(&title)
                .body(&body)
                .action("default", "Open");
            if actions {
                notification
                    .action("allow", "Allow once")
                    .action("deny", "Deny");
            }
            if let Some(id) = replace {
                notification.id(id);
            }
            let handle = notification.show().map_err(|e| e.to_string())?;
            let id = handle.id();
            if replace.is_none() {
                // One thread per live notification (at most `MAX_GROUPS` + 1), until the
                // person acts on it or it is closed.
                let spawned = std::thread::Builder::new()
                    .name("notification".into())
                    .spawn(move || {
                        handle.wait_for_action(|action| {
                            notices.send(NoticeInput::Acted {
                                notice: id,
                                action: action.to_owned(),
                            });
                        });
                    });
                if let Err(e) = spawned {
                    tracing::warn!("cannot follow a notification: {e}");
                }
            }
            Ok::<_, String>(id)
        })
        .await;
        match shown {
            Ok(Ok(id)) => Some(id),
            Ok(Err(e)) => {
                tracing::info!("cannot show a notification: {e}");
                None
            }
            Err(e) => {
                tracing::info!("cannot show a notification: {e}");
                None
            }
        }
    }

    /// Closes notification `notice` (rewritten, then closed: the service closes by id).
    pub async fn close(notice: u32) {
        let closed = tauri::async_runtime::spawn_blocking(move || {
            notify_rust::Notification::new()
                .appname("Gatehouse")
                .summary("Gatehouse")
                .id(notice)
                .show()
                .map(notify_rust::NotificationHandle::close)
        })
        .await;
        if !matches!(closed, Ok(Ok(()))) {
            tracing::info!("cannot close notification {notice}");
        }
    }
}

/// Elsewhere, the notification plugin: no ids, no buttons (a click brings the app forward).
#[cfg(not(all(unix, not(target_os = "macos"))))]
mod os {
    use super::Notices;
    use tauri::AppHandle;
    use tauri_plugin_notification::NotificationExt;

    pub async fn show(
        app: &AppHandle,
        _notices: &Notices,
        _replace: Option<u32>,
        title: &str,
        body: &str,
        _actions: bool,
    ) -> Option<u32> {
        if let Err(e) = app.notification().builder().title(title).body(body).show() {
            tracing::info!("cannot show a notification: {e}");
        }
        None
    }

    pub async fn close(_notice: u32) {}
}

/// Says once per data directory that closing the window keeps Gatehouse in the tray.
pub fn tell_once_about_the_tray(app: &AppHandle, data_dir: &std::path::Path) {
    let marker = data_dir.join("tray-notice-shown");
    if marker.exists() {
        return;
    }
    if let Err(e) = std::fs::write(&marker, b"") {
        tracing::info!("cannot remember the tray notice: {e}");
    }
    use tauri_plugin_notification::NotificationExt;
    let shown = app
        .notification()
        .builder()
        .title("Gatehouse is still running")
        .body("Your servers and agents keep working. Open Gatehouse or quit it from the tray.")
        .show();
    if let Err(e) = shown {
        tracing::info!("cannot show a notification: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_chosen_names_cannot_mark_up_or_flood_the_notification() {
        assert_eq!(
            plain("call `<b>x</b>` & go\n"),
            "call `&lt;b&gt;x&lt;/b&gt;` &amp; go "
        );
        let long = plain(&"y".repeat(1_000));
        assert_eq!(long.chars().count(), BODY_CHARS + 1);
        assert!(long.ends_with('…'));
    }
}
