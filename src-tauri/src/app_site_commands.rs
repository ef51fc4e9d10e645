//! The IPC commands of the Policies page's *App sites* section: the person's global lists of
//! outside sites MCP App views may reach (the engine applies them to every view it makes ready;
//! each change is audited).

use std::sync::Arc;

use gatehouse_host::{AppSites, Host, SiteList};
use tauri::State;

use crate::ipc_error::IpcError;

type HostState<'a> = State<'a, Arc<Host>>;

/// Both lists.
#[tauri::command]
#[specta::specta]
pub async fn app_sites(host: HostState<'_>) -> Result<AppSites, IpcError> {
    Ok(host.app_sites().await?)
}

/// Puts a domain (or a URL's host) on a list, moving it off the other; both lists afterwards.
#[tauri::command]
#[specta::specta]
pub async fn app_site_add(
    host: HostState<'_>,
    list: SiteList,
    domain: String,
) -> Result<AppSites, IpcError> {
    Ok(host.add_app_site(list, &domain).await?)
}

/// Takes a domain off whichever list it is on; both lists afterwards.
#[tauri::command]
#[specta::specta]
pub async fn app_site_remove(host: HostState<'_>, domain: String) -> Result<AppSites, IpcError> {
    Ok(host.remove_app_site(&domain).await?)
}
