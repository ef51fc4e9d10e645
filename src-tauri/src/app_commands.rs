//! The IPC commands of MCP Apps (SEP-1865): open a view (its resource read through the engine,
//! its proxy page registered on the sandbox origin), close it, and what the view asks the host
//! for: each bound to the open view that asks (by its token), so on the view's own server only
//! and not once the view is closed, and through the engine's `Host::app_*` methods, which gate,
//! audit and hold them to the tool's visibility with the `app` source.

use std::sync::Arc;

use gatehouse_host::protocol::{CallOptions, CallToolResult};
use gatehouse_host::{AppCsp, AppPermissions, CallOutcome, ErrorCode, Host, HostError};
use serde::Serialize;
use serde_json::{Map, Value};
use tauri::State;
use tauri_plugin_opener::OpenerExt;

use crate::apps::download::{self, DownloadError, Item};
use crate::apps::origins::{SANDBOX_ORIGIN, sandbox_url, token_of};
use crate::apps::{OpenViews, ViewEntry, link, view_webviews};
use crate::ipc_error::IpcError;

type HostState<'a> = State<'a, Arc<Host>>;

/// A view ready for the window to frame: the proxy page's URL on the sandbox origin, and what
/// the window sends it in `ui/notifications/sandbox-resource-ready`.
#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct AppFrame {
    /// The sandbox proxy page for this view (`gatehouse-app://localhost/sandbox?view=<token>`).
    pub sandbox_url: String,
    /// The exact origin the proxy's messages come from.
    pub sandbox_origin: String,
    pub uri: String,
    pub html: String,
    pub csp: AppCsp,
    /// The Content-Security-Policy the proxy page is served with, and the view's document gets.
    pub policy: String,
    /// What the view asks for; the window grants only what the person agrees to.
    pub permissions: AppPermissions,
    pub prefers_border: Option<bool>,
    pub domain: Option<String>,
    /// Declared sites the person's app site lists took out of `csp` and `policy`.
    pub withheld: Vec<String>,
    /// Declared sites refused because of where they lead (this computer, a private network, a
    /// whole public suffix), each as `source (why)`.
    pub refused: Vec<String>,
}

/// Where a `ui/download-file` request was saved.
#[derive(Debug, Clone, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct DownloadResult {
    /// The first file saved.
    pub path: String,
    /// Every file saved, in the request's order.
    pub paths: Vec<String>,
}

/// Reads the UI resource `uri` of the server and opens a view of it (its webview is made when
/// the window first places it, `app_place_view`).
#[tauri::command]
#[specta::specta]
pub async fn app_open_view(
    app: tauri::AppHandle,
    host: HostState<'_>,
    views: State<'_, OpenViews>,
    server_id: String,
    uri: String,
) -> Result<AppFrame, IpcError> {
    // The engine logs the view's policy (SEP-1865, "Host SHOULD log CSP configurations").
    let view = host.app_view(&server_id, &uri).await?;
    let token = views.open(ViewEntry {
        server_id: view.server_id.clone(),
        uri: view.uri.clone(),
        policy: view.policy.clone(),
        caller: format!("view {}", uuid::Uuid::new_v4().simple()),
    });
    // The oldest view may have been forgotten to make room.
    view_webviews::close_forgotten(&app, &views);
    Ok(AppFrame {
        sandbox_url: sandbox_url(&token),
        sandbox_origin: SANDBOX_ORIGIN.to_owned(),
        uri: view.uri,
        html: view.html,
        csp: view.csp,
        policy: view.policy,
        permissions: view.permissions,
        prefers_border: view.prefers_border,
        domain: view.domain,
        withheld: view.withheld,
        refused: view.refused,
    })
}

/// The open view `view` (its token or sandbox URL): what it asks for goes to its own server
/// only, and nothing more once it is closed.
fn open_view(views: &OpenViews, view: &str, what: &str) -> Result<ViewEntry, IpcError> {
    views
        .get(token_of(view))
        .ok_or_else(|| view_closed(&format!("{what} was not done")))
}

/// The refusal of a request from a view that is closed; `outcome` says what did not happen.
fn view_closed(outcome: &str) -> IpcError {
    IpcError {
        code: ErrorCode::NotFound,
        message: format!("the app's view is closed; {outcome}"),
    }
}

/// Forgets a view, by its token or its sandbox URL, and closes its webview; false if it was
/// not open.
#[tauri::command]
#[specta::specta]
pub fn app_close_view(app: tauri::AppHandle, views: State<'_, OpenViews>, view: String) -> bool {
    let Some(webview) = views.close(token_of(&view)) else {
        return false;
    };
    view_webviews::close(&app, &webview);
    true
}

/// `tools/call` from the open view `view` (its token or sandbox URL): on the view's own
/// server, the CallToolResult as MCP spells it. Closing the view cancels a call still running.
/// (The arguments are `tool_arguments`: `arguments` is no name for a JavaScript parameter.)
#[tauri::command]
#[specta::specta]
pub async fn app_call_tool(
    host: HostState<'_>,
    views: State<'_, OpenViews>,
    view: String,
    tool: String,
    tool_arguments: Option<Value>,
) -> Result<Value, IpcError> {
    let Some((entry, closed)) = views.ended(token_of(&view)) else {
        return Err(view_closed(&format!("`{tool}` was not called")));
    };
    let arguments = tool_arguments.filter(|a| !a.is_null());
    let outcome = host
        .app_call_tool(
            &entry.server_id,
            &entry.caller,
            &tool,
            arguments,
            CallOptions::default(),
            closed,
        )
        .await?;
    match outcome {
        CallOutcome::Done(result) => Ok(call_result_json(result)),
        CallOutcome::Cancelled => Err(IpcError {
            code: ErrorCode::Cancelled,
            message: format!("the call to `{tool}` was cancelled"),
        }),
    }
}

/// A tool's result in the wire shape (MCP `CallToolResult`), for the view.
fn call_result_json(result: CallToolResult) -> Value {
    let mut fields: Map<String, Value> = result.extra;
    let content = result
        .content
        .into_iter()
        .map(|block| serde_json::to_value(block).unwrap_or(Value::Null))
        .collect();
    fields.insert("content".into(), Value::Array(content));
    if let Some(structured) = result.structured_content {
        fields.insert("structuredContent".into(), structured);
    }
    fields.insert("isError".into(), Value::Bool(result.is_error));
    Value::Object(fields)
}

/// `resources/read` from the open view `view`, on its own server.
#[tauri::command]
#[specta::specta]
pub async fn app_read_resource(
    host: HostState<'_>,
    views: State<'_, OpenViews>,
    view: String,
    uri: String,
) -> Result<Value, IpcError> {
    let entry = open_view(&views, &view, &format!("reading `{uri}`"))?;
    Ok(host
        .app_read_resource(&entry.server_id, &entry.caller, &uri)
        .await?)
}

/// `resources/list` from the open view `view`, on its own server.
#[tauri::command]
#[specta::specta]
pub async fn app_list_resources(
    host: HostState<'_>,
    views: State<'_, OpenViews>,
    view: String,
) -> Result<Value, IpcError> {
    let entry = open_view(&views, &view, "listing resources")?;
    Ok(host.app_list_resources(&entry.server_id).await?)
}

/// `resources/templates/list` from the open view `view`, on its own server.
#[tauri::command]
#[specta::specta]
pub async fn app_list_resource_templates(
    host: HostState<'_>,
    views: State<'_, OpenViews>,
    view: String,
) -> Result<Value, IpcError> {
    let entry = open_view(&views, &view, "listing resource templates")?;
    Ok(host.app_list_resource_templates(&entry.server_id).await?)
}

/// `tools/list` from the open view `view`: its own server's tools that apps may call.
#[tauri::command]
#[specta::specta]
pub async fn app_list_tools(
    host: HostState<'_>,
    views: State<'_, OpenViews>,
    view: String,
) -> Result<Value, IpcError> {
    let entry = open_view(&views, &view, "listing tools")?;
    Ok(host.app_list_tools(&entry.server_id).await?)
}

/// `sampling/createMessage` from the open view `view`: put to the person like a server's.
#[tauri::command]
#[specta::specta]
pub async fn app_create_message(
    host: HostState<'_>,
    views: State<'_, OpenViews>,
    view: String,
    params: Value,
) -> Result<Value, IpcError> {
    let entry = open_view(&views, &view, "sampling")?;
    Ok(host
        .app_create_message(&entry.server_id, &entry.caller, params)
        .await?)
}

/// `ui/open-link`, after the person confirmed: http and https only, in the system browser.
#[tauri::command]
#[specta::specta]
pub fn app_open_link(app: tauri::AppHandle, url: String) -> Result<(), IpcError> {
    link::check(&url)?;
    app.opener()
        .open_url(&url, None::<&str>)
        .map_err(|e| IpcError {
            code: ErrorCode::Io,
            message: format!("cannot open the browser: {e}"),
        })
}

/// `ui/download-file` from the open view `view`, after the person agreed: each file into the
/// Downloads folder under a sanitised name, never over an existing file. Resource links are
/// read from the view's own server.
#[tauri::command]
#[specta::specta]
pub async fn app_download_file(
    host: HostState<'_>,
    views: State<'_, OpenViews>,
    view: String,
    params: Value,
) -> Result<DownloadResult, IpcError> {
    let entry = open_view(&views, &view, "the download")?;
    let items = download::parse(&params).map_err(download_error)?;
    let mut files = Vec::with_capacity(items.len());
    for item in items {
        files.push(match item {
            Item::Embedded { name, bytes } => (name, bytes),
            Item::Link { uri, name } => {
                let read = host
                    .app_read_resource(&entry.server_id, &entry.caller, &uri)
                    .await?;
                let first = read.get("contents").and_then(|c| c.get(0)).ok_or_else(|| {
                    download_error(DownloadError::Invalid(format!("`{uri}` has no contents")))
                })?;
                (name, download::bytes_of(first).map_err(download_error)?)
            }
        });
    }
    let dir = download::downloads_dir().ok_or_else(|| IpcError {
        code: ErrorCode::Io,
        message: "there is no Downloads folder to save into".into(),
    })?;
    let paths = tokio::task::spawn_blocking(move || {
        files
            .iter()
            .map(|(name, bytes)| download::save(&dir, name, bytes))
            .collect::<std::io::Result<Vec<_>>>()
    })
    .await
    .map_err(|e| IpcError {
        code: ErrorCode::Io,
        message: format!("cannot save the file: {e}"),
    })?
    .map_err(|e| IpcError {
        code: ErrorCode::Io,
        message: format!("cannot save the file: {e}"),
    })?;
    let paths: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    tracing::info!("saved an app's download of {}: {paths:?}", entry.server_id);
    Ok(DownloadResult {
        path: paths.first().cloned().unwrap_or_default(),
        paths,
    })
}

fn download_error(error: DownloadError) -> IpcError {
    HostError::Validation(error.to_string()).into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use gatehouse_host::protocol::Content;
    use serde_json::json;

    #[test]
    fn a_views_requests_go_to_its_own_server_and_stop_when_it_closes() {
        let views = OpenViews::default();
        let token = views.open(ViewEntry {
            server_id: "srv-1".into(),
            uri: "ui://a/view.html".into(),
            policy: "default-src 'none'".into(),
            caller: "view test".into(),
        });
        let url = sandbox_url(&token);
        let entry = open_view(&views, &url, "listing tools").expect("open");
        assert_eq!(entry.server_id, "srv-1");
        assert!(open_view(&views, "gatehouse-app://localhost/sandbox?view=0", "x").is_err());
        assert!(views.close(&token).is_some());
        let closed = open_view(&views, &url, "reading `file:///a`").expect_err("closed");
        assert_eq!(closed.code, "not_found");
        assert!(
            closed.message.contains("reading `file:///a`"),
            "{}",
            closed.message
        );
    }

    #[test]
    fn a_tool_result_reaches_the_view_as_mcp_spells_it() {
        let result = CallToolResult {
            content: Content::parse_all(Some(json!([{"type": "text", "text": "hi"}]))),
            structured_content: Some(json!({"n": 1})),
            is_error: false,
            schema_problem: None,
            extra: Map::from_iter([("_meta".to_owned(), json!({"k": "v"}))]),
        };
        assert_eq!(
            call_result_json(result),
            json!({
                "_meta": {"k": "v"},
                "content": [{"type": "text", "text": "hi"}],
                "structuredContent": {"n": 1},
                "isError": false
            })
        );
    }
}
