//! The Resources tab's commands: the resources and templates a page at a time, a resource read,
//! and subscribing to a resource's updates.

use std::sync::Arc;

use gatehouse_host::Host;
use gatehouse_host::control::answers;
use tauri::State;
use tauri::ipc::Channel;

use super::subscriptions::PersonSubscriptions;
use super::views::{ListPage, ResourceContentsView, ResourceItem, ResourceUpdate, TemplateItem};
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
