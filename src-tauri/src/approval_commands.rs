//! The IPC commands of approvals: the requests waiting for a person (held by the engine, so a
//! reloaded window finds them again), answering one, the standing grants with revoke, and
//! opening a URL a server asked the person to visit, in the system browser, once they agreed,
//! with what the person is shown about where a URL leads.

use std::sync::Arc;

use serde::Serialize;

use gatehouse_host::approvals::{Answer, PendingApproval, site};
use gatehouse_host::policy::Grant;
use gatehouse_host::{ErrorCode, Host, HostError};
use tauri::State;
use tauri_plugin_opener::OpenerExt;

use crate::ipc_error::IpcError;

type HostState<'a> = State<'a, Arc<Host>>;

/// The requests waiting for an answer, oldest first.
#[tauri::command]
#[specta::specta]
pub fn list_approvals(host: HostState<'_>) -> Vec<PendingApproval> {
    host.pending_approvals()
}

/// Answers a waiting request. An answer that does not fit (edited arguments that do not match
/// the tool's inputSchema, a form that does not match its schema) is a `validation` error, and
/// the request keeps waiting.
///
/// Checking an answer runs a server's JSON Schema over what the person typed, which can take a
/// while: the command is async (a sync command runs on the main thread, which draws the window)
/// and the check runs on the blocking pool, off the async runtime's workers.
#[tauri::command]
#[specta::specta]
pub async fn answer_approval(
    host: HostState<'_>,
    id: String,
    answer: Answer,
) -> Result<(), IpcError> {
    answer_off_thread(Arc::clone(&host), id, answer).await
}

/// Answers request `id` on the blocking pool.
async fn answer_off_thread(host: Arc<Host>, id: String, answer: Answer) -> Result<(), IpcError> {
    tauri::async_runtime::spawn_blocking(move || host.answer_approval(&id, answer))
        .await
        .map_err(|e| IpcError {
            code: ErrorCode::Io,
            message: format!("the answer was not checked: {e}"),
        })?
        .map_err(IpcError::from)
}

/// The standing grants that still hold.
#[tauri::command]
#[specta::specta]
pub async fn list_grants(host: HostState<'_>) -> Result<Vec<Grant>, IpcError> {
    Ok(host.grants().await?)
}

/// Revokes a standing grant.
#[tauri::command]
#[specta::specta]
pub async fn revoke_grant(host: HostState<'_>, id: String) -> Result<Grant, IpcError> {
    Ok(host.revoke_grant(&id).await?)
}

/// Where a URL leads, as the person sees it before agreeing to open it: its site, shown large,
/// and what looks suspicious (Punycode, a user name, plain http, not a web URL).
#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct UrlSite {
    pub domain: String,
    pub warnings: Vec<String>,
}

/// Describes `url` the way a server's URL elicitation is described ([`site::describe`]), for the
/// app's own open-link confirmation.
#[tauri::command]
#[specta::specta]
pub async fn describe_url(url: String) -> UrlSite {
    let (domain, warnings) = site::describe(&url);
    UrlSite { domain, warnings }
}

/// Opens an http or https URL in the system browser; anything else is refused.
#[tauri::command]
#[specta::specta]
pub fn open_external_url(app: tauri::AppHandle, url: String) -> Result<(), IpcError> {
    if !site::openable(&url) {
        return Err(HostError::Validation(format!(
            "only http and https URLs are opened, not `{url}`"
        ))
        .into());
    }
    app.opener()
        .open_url(&url, None::<&str>)
        .map_err(|e| IpcError {
            code: ErrorCode::Io,
            message: format!("cannot open the browser: {e}"),
        })
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};

    use gatehouse_host::approvals::{Asking, Outcome, Question};
    use gatehouse_host::{HostOptions, Source};
    use serde_json::{Value, json};

    use super::*;

    /// A form whose check takes a while: many strings, each matched against a pattern.
    fn slow_form() -> (Value, Value) {
        let schema = json!({
            "type": "object",
            "properties": {"lines": {"type": "array", "items": {"type": "string", "pattern": "^(ab|cd)*e$"}}}
        });
        let line = format!("{}e", "ab".repeat(200));
        (schema, json!({ "lines": vec![line; 20_000] }))
    }

    #[tokio::test(flavor = "current_thread")]
    async fn checking_an_answer_leaves_the_runtime_free() {
        let dir = tempfile::tempdir().expect("temp dir");
        let host = Arc::new(
            Host::open(HostOptions {
                data_dir: Some(dir.path().into()),
                ..Default::default()
            })
            .await
            .expect("open"),
        );
        host.set_attended(true);
        let (schema, content) = slow_form();
        let approvals = host.approvals();
        let asked = tokio::spawn(async move {
            approvals
                .ask(Asking {
                    server: "s".into(),
                    server_id: "s".into(),
                    source: Source::Server,
                    reason: "a form".into(),
                    rule: None,
                    question: Question::Elicitation {
                        message: "fill it".into(),
                        requested_schema: schema,
                    },
                })
                .await
        });
        let id = loop {
            if let Some(pending) = host.pending_approvals().first() {
                break pending.id.clone();
            }
            tokio::task::yield_now().await;
        };

        // One thread runs both: while the answer is checked, the other task must go on.
        let done = Arc::new(AtomicBool::new(false));
        let spinning = Arc::clone(&done);
        let ticker = tokio::spawn(async move {
            let mut turns = 0_u64;
            while !spinning.load(Ordering::Acquire) {
                turns += 1;
                tokio::task::yield_now().await;
            }
            turns
        });
        let answer = Answer::Accept {
            content: Some(content),
        };
        answer_off_thread(Arc::clone(&host), id, answer)
            .await
            .expect("a fitting answer");
        done.store(true, Ordering::Release);
        let turns = ticker.await.expect("ticker");
        assert!(
            turns > 10,
            "the runtime's thread was blocked while the answer was checked ({turns} turns)"
        );
        assert!(matches!(
            asked.await.expect("asked"),
            Outcome::Answered(Answer::Accept { .. })
        ));
    }
}
