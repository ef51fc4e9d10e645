//! What each operation of a connected server answers, built from a [`ServerConnection`] by one
//! function each, used both by the engine for a face on the control socket (over its live
//! session) and by the CLI in-process (over its own connection): the two cannot drift.

use std::collections::BTreeMap;

use gatehouse_mcp::{
    Completion, CompletionRef, GetPromptResult, InitializeResult, Page, Prompt, Resource,
    ResourceContents, ResourceTemplate, ToolPage,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::connections::connection::ServerConnection;
use crate::error::{HostError, Result};
use crate::oversight::gate::Source;
use crate::sessions::status::{Offer, ToolInfo};

/// What `gatehouse tools --json` prints.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolListing {
    pub server: String,
    pub transport: String,
    pub protocol_version: String,
    pub server_info: NameVersion,
    pub offers: Vec<Offer>,
    pub tools: Vec<ToolInfo>,
    pub malformed: Vec<Value>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct NameVersion {
    pub name: String,
    pub version: String,
}

/// A ping's round trip.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pong {
    pub server: String,
    pub transport: String,
    pub round_trip_ms: f64,
}

/// Lists the server's tools (when it offers any) through the gate, with what it says of itself.
pub async fn tool_listing(connection: &ServerConnection) -> Result<ToolListing> {
    let client = connection.client();
    let offers = Offer::of(client);
    let page = if offers.contains(&Offer::Tools) {
        connection.list_tools().await?
    } else {
        ToolPage::default()
    };
    let init = client.initialize_result();
    Ok(ToolListing {
        server: connection.server().to_owned(),
        transport: client.transport_kind().to_owned(),
        protocol_version: init.protocol_version.clone(),
        server_info: NameVersion {
            name: init.server_info.name.clone(),
            version: init.server_info.version.clone(),
        },
        offers,
        tools: page.items.iter().map(ToolInfo::from).collect(),
        malformed: page.malformed.clone(),
    })
}

/// Pings the server once and times the round trip.
pub async fn pong(connection: &ServerConnection) -> Result<Pong> {
    let client = connection.client();
    let round_trip = client.ping().await?;
    Ok(Pong {
        server: connection.server().to_owned(),
        transport: client.transport_kind().to_owned(),
        round_trip_ms: round_trip.as_secs_f64() * 1000.0,
    })
}

/// What a server said of itself in the handshake, and how the connection was made: what
/// `gatehouse info --json` prints.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerFacts {
    pub server: String,
    pub transport: String,
    /// `legacy` or `modern`.
    pub era: String,
    pub era_reason: String,
    pub initialize: InitializeResult,
}

pub fn facts(connection: &ServerConnection) -> ServerFacts {
    let client = connection.client();
    ServerFacts {
        server: connection.server().to_owned(),
        transport: client.transport_kind().to_owned(),
        era: client.era().as_str().to_owned(),
        era_reason: client.era_reason().to_owned(),
        initialize: client.initialize_result().clone(),
    }
}

/// Every item of a list (every page), with the entries that did not have the expected shape.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Listed<T> {
    pub server: String,
    pub items: Vec<T>,
    pub malformed: Vec<Value>,
}

impl<T> Listed<T> {
    fn of(connection: &ServerConnection, page: Page<T>) -> Listed<T> {
        Listed {
            server: connection.server().to_owned(),
            items: page.items,
            malformed: page.malformed,
        }
    }

    /// The server's name and the list as a page, as the client made it.
    pub fn into_page(self) -> (String, Page<T>) {
        let page = Page {
            items: self.items,
            malformed: self.malformed,
        };
        (self.server, page)
    }
}

pub async fn resources(connection: &ServerConnection) -> Result<Listed<Resource>> {
    let page = connection.client().list_resources().await?;
    Ok(Listed::of(connection, page))
}

pub async fn templates(connection: &ServerConnection) -> Result<Listed<ResourceTemplate>> {
    let page = connection.client().list_resource_templates().await?;
    Ok(Listed::of(connection, page))
}

pub async fn prompts(connection: &ServerConnection) -> Result<Listed<Prompt>> {
    let page = connection.client().list_prompts().await?;
    Ok(Listed::of(connection, page))
}

/// One page of a list, with the cursor of the next page when there is one: what a face that
/// shows a list a page at a time asks for.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PageReply<T> {
    pub server: String,
    pub items: Vec<T>,
    pub malformed: Vec<Value>,
    pub next_cursor: Option<String>,
}

impl<T> PageReply<T> {
    fn of(connection: &ServerConnection, (page, next_cursor): (Page<T>, Option<String>)) -> Self {
        PageReply {
            server: connection.server().to_owned(),
            items: page.items,
            malformed: page.malformed,
            next_cursor,
        }
    }
}

/// One page of the resources, from `cursor` (the first when `None`).
pub async fn resources_page(
    connection: &ServerConnection,
    cursor: Option<&str>,
) -> Result<PageReply<Resource>> {
    let page = connection.client().list_resources_page(cursor).await?;
    Ok(PageReply::of(connection, page))
}

/// One page of the resource templates, from `cursor`.
pub async fn templates_page(
    connection: &ServerConnection,
    cursor: Option<&str>,
) -> Result<PageReply<ResourceTemplate>> {
    let page = connection
        .client()
        .list_resource_templates_page(cursor)
        .await?;
    Ok(PageReply::of(connection, page))
}

/// One page of the prompts, from `cursor`.
pub async fn prompts_page(
    connection: &ServerConnection,
    cursor: Option<&str>,
) -> Result<PageReply<Prompt>> {
    let page = connection.client().list_prompts_page(cursor).await?;
    Ok(PageReply::of(connection, page))
}

/// A resource's contents, read through the gate.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReadReply {
    pub server: String,
    pub uri: String,
    pub contents: Vec<ResourceContents>,
}

pub async fn read(connection: &ServerConnection, uri: &str) -> Result<ReadReply> {
    let contents = connection.read_resource(uri, Source::User).await?;
    Ok(ReadReply {
        server: connection.server().to_owned(),
        uri: uri.to_owned(),
        contents,
    })
}

/// A prompt filled in, got through the gate; `result` is the server's `GetPromptResult`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PromptReply {
    pub server: String,
    pub prompt: String,
    pub result: Value,
}

impl PromptReply {
    /// The prompt's messages, parsed as the client parses them.
    pub fn parsed(&self) -> Result<GetPromptResult> {
        GetPromptResult::parse(self.result.clone()).map_err(HostError::from)
    }
}

pub async fn prompt(
    connection: &ServerConnection,
    name: &str,
    arguments: &BTreeMap<String, String>,
) -> Result<PromptReply> {
    let got = connection.get_prompt(name, arguments, Source::User).await?;
    Ok(PromptReply {
        server: connection.server().to_owned(),
        prompt: name.to_owned(),
        result: to_value(&got)?,
    })
}

/// What to complete: an argument of a prompt or a variable of a resource template.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CompletionAsk {
    /// A prompt's name, or (with `template`) a resource template's URI.
    pub reference: String,
    pub template: bool,
    pub argument: String,
    pub value: String,
    pub context: BTreeMap<String, String>,
}

impl CompletionAsk {
    pub fn reference(&self) -> CompletionRef {
        if self.template {
            CompletionRef::ResourceTemplate {
                uri: self.reference.clone(),
            }
        } else {
            CompletionRef::Prompt {
                name: self.reference.clone(),
            }
        }
    }
}

/// The server's completions, asked through the gate.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CompletionReply {
    pub server: String,
    pub completion: Completion,
}

pub async fn complete(
    connection: &ServerConnection,
    ask: &CompletionAsk,
) -> Result<CompletionReply> {
    let completion = connection
        .complete(
            &ask.reference(),
            &ask.argument,
            &ask.value,
            Some(&ask.context),
            Source::User,
        )
        .await?;
    Ok(CompletionReply {
        server: connection.server().to_owned(),
        completion,
    })
}

fn to_value(value: &impl Serialize) -> Result<Value> {
    serde_json::to_value(value).map_err(|e| HostError::Protocol(e.to_string()))
}
