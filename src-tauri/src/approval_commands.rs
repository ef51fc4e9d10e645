//! The IPC commands of approvals: the requests waiting for a person (held by the engine, so a
//! reloaded window finds them again), answering one, the standing grants with revoke, and
//! opening a URL a server asked the person to visit, in the system browser, once they agreed,
//! with what the person is shown about where a URL leads.

use std::sync::Arc;

use serde::Serialize;

use gatehouse_host::approvals::{Answer, PendingApproval, site};
use gatehouse_host::policy::Grant;
use gatehouse_host::{Host, HostError};
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
#[tauri::command]
#[specta::specta]
pub fn answer_approval(host: HostState<'_>, id: String, answer: Answer) -> Result<(), IpcError> {
    Ok(host.answer_approval(&id, answer)?)
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
            code: "io".into(),
            message: format!("cannot open the browser: {e}"),
        })
}
