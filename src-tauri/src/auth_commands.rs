//! The IPC commands of a server's sign-in (OAuth): its state, signing in through the system
//! browser (a loopback redirect on 127.0.0.1, RFC 8252), signing out, and forgetting the sign-in
//! at an enterprise identity provider. No token ever
//! crosses IPC: the engine keeps them in the OS keyring.

use std::sync::Arc;
use std::time::Duration;

use gatehouse_host::approvals::site;
use gatehouse_host::{AuthStatus, Host, LoopbackPrompt};
use tauri::State;
use tauri_plugin_opener::OpenerExt;

use crate::ipc_error::IpcError;

type HostState<'a> = State<'a, Arc<Host>>;

/// How long a sign-in waits for the person to finish in the browser.
const SIGN_IN_TIMEOUT: Duration = Duration::from_secs(300);

/// What the engine knows about the server's sign-in.
#[tauri::command]
#[specta::specta]
pub async fn auth_status(host: HostState<'_>, id: String) -> Result<AuthStatus, IpcError> {
    Ok(host.auth_status(&id).await?)
}

/// Signs in to the HTTP server: opens its authorization page in the system browser and waits
/// (at most five minutes) for the redirect back; then the server is connected again.
#[tauri::command]
#[specta::specta]
pub async fn sign_in(
    app: tauri::AppHandle,
    host: HostState<'_>,
    id: String,
) -> Result<AuthStatus, IpcError> {
    let open = move |url: &str| {
        if !site::openable(url) {
            return Err(format!("only http and https URLs are opened, not `{url}`"));
        }
        app.opener()
            .open_url(url, None::<&str>)
            .map_err(|e| format!("cannot open the browser: {e}"))
    };
    let prompt = LoopbackPrompt::bind(Box::new(open), SIGN_IN_TIMEOUT).await?;
    Ok(host.sign_in(&id, prompt).await?)
}

/// Signs out: the server's tokens are deleted from the keyring, and it is connected again
/// (without them).
#[tauri::command]
#[specta::specta]
pub async fn sign_out(host: HostState<'_>, id: String) -> Result<(), IpcError> {
    host.sign_out(&id).await?;
    Ok(())
}

/// Forgets the sign-in at the server's enterprise identity provider (for every server using
/// it); nothing for a server without enterprise-managed authorization.
#[tauri::command]
#[specta::specta]
pub async fn forget_idp_sign_in(host: HostState<'_>, id: String) -> Result<(), IpcError> {
    host.forget_idp_sign_in(&id).await?;
    Ok(())
}
