//! The Prompts tab's commands (and the completion both tabs' forms use): the prompts a page at
//! a time, a prompt filled in, and the suggestions for an argument as it is typed.

use std::collections::BTreeMap;
use std::sync::Arc;

use gatehouse_host::Host;
use gatehouse_host::control::answers::{self, CompletionAsk};
use tauri::State;

use super::views::{CompletionView, ListPage, PromptItem, PromptView};
use crate::ipc_error::IpcError;

type HostState<'a> = State<'a, Arc<Host>>;

/// One page of the server's prompts, from `cursor` (the first page when `null`).
#[tauri::command]
#[specta::specta]
pub async fn list_prompts_page(
    host: HostState<'_>,
    id: String,
    cursor: Option<String>,
) -> Result<ListPage<PromptItem>, IpcError> {
    let connection = host.attached(&id).await?;
    let reply = answers::prompts_page(&connection, cursor.as_deref()).await?;
    Ok(ListPage::of(reply, PromptItem::from))
}

/// Gets a prompt filled in with `prompt_arguments` through the gate, as the person's request.
/// (`arguments` is no name for a JavaScript parameter.)
#[tauri::command]
#[specta::specta]
pub async fn get_prompt(
    host: HostState<'_>,
    id: String,
    name: String,
    prompt_arguments: BTreeMap<String, String>,
) -> Result<PromptView, IpcError> {
    let connection = host.attached(&id).await?;
    let reply = answers::prompt(&connection, &name, &prompt_arguments).await?;
    Ok(PromptView::of(reply.parsed()?))
}

/// Asks the server for completions of `argument` of a prompt (`reference` its name) or of a
/// resource template (`template`, `reference` its URI template), through the gate; `context`
/// holds the arguments already filled in.
#[tauri::command]
#[specta::specta]
pub async fn complete_argument(
    host: HostState<'_>,
    id: String,
    reference: String,
    template: bool,
    argument: String,
    value: String,
    context: BTreeMap<String, String>,
) -> Result<CompletionView, IpcError> {
    let connection = host.attached(&id).await?;
    let ask = CompletionAsk {
        reference,
        template,
        argument,
        value,
        context,
    };
    let reply = answers::complete(&connection, &ask).await?;
    Ok(reply.completion.into())
}
