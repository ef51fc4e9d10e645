//! The Resources tab's commands: the resources and templates a page at a time, a resource read,
//! subscribing to a resource's updates, and saving what was read.

use std::sync::Arc;

use gatehouse_host::Host;
use gatehouse_host::control::answers;
use tauri::State;
use tauri::ipc::Channel;

use super::subscriptions::PersonSubscriptions;
use super::views::{ListPage, ResourceContentsView, ResourceItem, ResourceUpdate, TemplateItem};
use crate::apps::download;
use crate::ipc_error::IpcError;

type HostState<'a> = State<'a, Arc<Host>>;

/// One page of the server's resources, from `cursor` (the first page when `null`).
#[tauri::command]
#[specta::specta]
pub async fn list_resources_page(
    host: HostState<'_>,
    id: String,
    cursor: Option<String>,
) -> Result<ListPage<ResourceItem>, IpcError> {
    let connection = host.attached(&id).await?;
    let reply = answers::resources_page(&connection, cursor.as_deref()).await?;
    Ok(ListPage::of(reply, ResourceItem::from))
}

/// One page of the server's resource templates, from `cursor`.
#[tauri::command]
#[specta::specta]
pub async fn list_resource_templates_page(
    host: HostState<'_>,
    id: String,
    cursor: Option<String>,
) -> Result<ListPage<TemplateItem>, IpcError> {
    let connection = host.attached(&id).await?;
    let reply = answers::templates_page(&connection, cursor.as_deref()).await?;
    Ok(ListPage::of(reply, TemplateItem::from))
}

/// Reads a resource through the gate, as the person's request.
#[tauri::command]
#[specta::specta]
pub async fn read_resource(
    host: HostState<'_>,
    id: String,
    uri: String,
) -> Result<Vec<ResourceContentsView>, IpcError> {
    let connection = host.attached(&id).await?;
    let reply = answers::read(&connection, &uri).await?;
    Ok(reply.contents.into_iter().map(Into::into).collect())
}

/// Subscribes to a resource's updates (decided by the gate as a read); each update, coalesced,
/// arrives on `on_update` until [`unsubscribe_resource`].
#[tauri::command]
#[specta::specta]
pub async fn subscribe_resource(
    host: HostState<'_>,
    subscriptions: State<'_, PersonSubscriptions>,
    id: String,
    uri: String,
    on_update: Channel<ResourceUpdate>,
) -> Result<(), IpcError> {
    subscriptions.subscribe(&host, &id, uri, on_update).await
}

#[tauri::command]
#[specta::specta]
pub async fn unsubscribe_resource(
    host: HostState<'_>,
    subscriptions: State<'_, PersonSubscriptions>,
    id: String,
    uri: String,
) -> Result<(), IpcError> {
    subscriptions.unsubscribe(&host, &id, uri).await
}

/// Saves a resource's contents (as read: `text`, or base64 `blob`) into the Downloads folder
/// under the last segment of its URI, never replacing a file; returns where it went.
#[tauri::command]
#[specta::specta]
pub async fn save_resource_contents(contents: ResourceContentsView) -> Result<String, IpcError> {
    let failed = |message: String| IpcError {
        code: gatehouse_host::ErrorCode::Io,
        message,
    };
    let value = serde_json::json!({ "text": contents.text, "blob": contents.blob });
    let bytes = download::bytes_of(&value).map_err(|e| failed(e.to_string()))?;
    let dir = download::downloads_dir()
        .ok_or_else(|| failed("there is no Downloads folder or home directory".into()))?;
    let name = file_name_of(&contents.uri);
    let path = download::save(&dir, &name, &bytes)
        .map_err(|e| failed(format!("cannot save into {}: {e}", dir.display())))?;
    Ok(path.display().to_string())
}

/// The last segment of a URI, without its query or fragment; `resource` when there is none.
fn file_name_of(uri: &str) -> String {
    let path = uri.split(['?', '#']).next().unwrap_or(uri);
    match path.trim_end_matches('/').rsplit('/').next() {
        Some(last) if !last.is_empty() && !last.contains(':') => last.to_owned(),
        _ => "resource".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::file_name_of;

    #[test]
    fn a_saved_resource_is_named_for_the_last_segment_of_its_uri() {
        assert_eq!(file_name_of("demo://resource/dynamic/blob/3"), "3");
        assert_eq!(file_name_of("file:///tmp/a.png?x=1"), "a.png");
        assert_eq!(file_name_of("urn:thing"), "resource");
        assert_eq!(file_name_of("demo://x/"), "x");
    }
}
