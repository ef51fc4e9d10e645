//! One short-lived connection to a configured server, for a caller that needs one for a while
//! (each CLI command): the server is looked up in the registry and refused if disabled, the
//! connection opened with its secrets, requests go through the host's [`Gate`], and closing
//! stops the server whatever the outcome.
//!
//! Tool calls, resource reads, prompt gets and completions go through the gate; so does listing
//! the tools, whose definitions go into the policy's history ([`ServerConnection::list_tools`]).
//! Listing what else a server offers (and the server's own metadata) uses
//! [`ServerConnection::client`].

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Arc;

use gatehouse_mcp::peer::Handler;
use gatehouse_mcp::{
    CallOptions, Client, Completion, CompletionRef, GetPromptResult, ResourceContents, ToolPage,
};

use crate::connections::connect::open_client_with;
use crate::connections::server_requests::Declared;
use crate::error::{HostError, Result};
use crate::oversight::gate::from_server::AuditedHandler;
use crate::oversight::gate::{Ask, CallOutcome, Gate, RequestKind, Source, Target, ToolCall};
use crate::store::registry::Registry;
use crate::store::registry::model::ServerConfig;

/// A connected server, under the name and id it is registered with.
pub struct ServerConnection {
    server: String,
    server_id: String,
    client: Arc<Client>,
    gate: Gate,
    /// Whether closing this connection closes the client (its own), or leaves it to the live
    /// session it was borrowed from ([`ServerConnection::over_live`]).
    owned: bool,
    /// The face requests come through, recorded with the resource reads, prompt gets and
    /// completions it makes (tool calls name theirs in [`ToolCall::caller`]).
    caller: Option<String>,
}

impl ServerConnection {
    /// Connects to the server named (or with the id) `server`, which must be enabled; its
    /// requests are answered by the handler `answers` makes for its configuration.
    pub(crate) async fn open(
        registry: &Registry,
        gate: Gate,
        server: &str,
        answers: impl FnOnce(&ServerConfig) -> Arc<dyn Handler>,
    ) -> Result<ServerConnection> {
        let config = registry.get(server).await?;
        if !config.enabled {
            return Err(HostError::Validation(format!(
                "`{}` is disabled; enable it with `gatehouse server enable {}`",
                config.name, config.name
            )));
        }
        gate.learn_secrets(&config.id).await?;
        let handler = Arc::new(AuditedHandler::new(
            answers(&config),
            gate.clone(),
            &config.name,
            &config.id,
        ));
        let declared = Declared {
            attended: gate.approvals().attended(),
            apps: false,
        };
        let client = open_client_with(&config, registry, handler, declared).await?;
        Ok(ServerConnection {
            server: config.name,
            server_id: config.id,
            client: Arc::new(client),
            gate,
            owned: true,
            caller: None,
        })
    }

    /// A gated connection over a live session's client: requests go through the gate as on
    /// any connection, and closing it leaves the session (and its server) running.
    pub(crate) fn over_live(config: &ServerConfig, client: Arc<Client>, gate: Gate) -> Self {
        ServerConnection {
            server: config.name.clone(),
            server_id: config.id.clone(),
            client,
            gate,
            owned: false,
            caller: None,
        }
    }

    /// Names the face this connection's requests come through (`cli`).
    pub fn with_caller(mut self, caller: impl Into<String>) -> Self {
        self.caller = Some(caller.into());
        self
    }

    /// The server's registered name.
    pub fn server(&self) -> &str {
        &self.server
    }

    /// The server's id.
    pub fn server_id(&self) -> &str {
        &self.server_id
    }

    /// The connection, for listing and reading what the server offers.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// Lists the server's tools and keeps the definitions seen in the policy's history, so that
    /// a rule made for an earlier definition of a tool shows as stale.
    pub async fn list_tools(&self) -> Result<ToolPage> {
        let page = self.client.list_tools().await?;
        self.gate.tools_listed(&self.server_id, &page.items).await?;
        Ok(page)
    }

    /// Calls a tool through the gate (see [`Gate::call_tool`]).
    pub async fn call_tool(
        &self,
        call: ToolCall,
        options: CallOptions,
        cancel: impl Future<Output = ()>,
    ) -> Result<CallOutcome> {
        self.gate
            .call_tool(self.target(), call, options, cancel)
            .await
    }

    /// Reads a resource through the gate.
    pub async fn read_resource(&self, uri: &str, source: Source) -> Result<Vec<ResourceContents>> {
        let ask = Ask {
            kind: RequestKind::ResourceRead {
                uri: uri.to_owned(),
            },
            source,
            caller: self.caller.clone(),
        };
        self.gate
            .run(self.target(), ask, self.client.read_resource(uri))
            .await
    }

    /// Subscribes to a resource's updates through the gate, which decides it as a read of the
    /// resource (what the updates lead to); the server is asked only when `ask_server` (the
    /// first agent to want it: [`crate::oversight::gate::agent_notices`]).
    pub async fn subscribe(&self, uri: &str, source: Source, ask_server: bool) -> Result<()> {
        let ask = Ask {
            kind: RequestKind::ResourceRead {
                uri: uri.to_owned(),
            },
            source,
            caller: self.caller.clone(),
        };
        let send = async {
            match ask_server {
                true => self.client.subscribe(uri).await,
                false => Ok(()),
            }
        };
        self.gate.run(self.target(), ask, send).await
    }

    /// Gets a prompt, filled in with `arguments`, through the gate.
    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: &BTreeMap<String, String>,
        source: Source,
    ) -> Result<GetPromptResult> {
        let ask = Ask {
            kind: RequestKind::PromptGet {
                name: name.to_owned(),
                arguments: serde_json::json!(arguments),
            },
            source,
            caller: self.caller.clone(),
        };
        self.gate
            .run(self.target(), ask, self.client.get_prompt(name, arguments))
            .await
    }

    /// Asks for completions of a prompt argument or a template variable, through the gate.
    pub async fn complete(
        &self,
        reference: &CompletionRef,
        argument: &str,
        value: &str,
        context: Option<&BTreeMap<String, String>>,
        source: Source,
    ) -> Result<Completion> {
        let ask = Ask {
            kind: RequestKind::Completion {
                reference: reference.to_json(),
                argument: argument.to_owned(),
                value: value.to_owned(),
            },
            source,
            caller: self.caller.clone(),
        };
        let send = self.client.complete(reference, argument, value, context);
        self.gate.run(self.target(), ask, send).await
    }

    fn target(&self) -> Target<'_> {
        Target {
            server: &self.server,
            server_id: &self.server_id,
            client: &self.client,
        }
    }

    /// Closes the connection (stopping a stdio server) and returns the caller's outcome. A
    /// failure to close is reported only when the outcome itself was a success.
    pub async fn close<T>(self, outcome: Result<T>) -> Result<T> {
        if !self.owned {
            return outcome;
        }
        let closed = match Arc::try_unwrap(self.client) {
            Ok(client) => client.close().await,
            // Not reached: an owned client is never shared.
            Err(_) => Ok(()),
        };
        match (outcome, closed) {
            (Ok(value), Ok(())) => Ok(value),
            (Ok(_), Err(close_error)) => Err(close_error.into()),
            (Err(error), closed) => {
                if let Err(close_error) = closed {
                    tracing::debug!("closing after an error: {close_error}");
                }
                Err(error)
            }
        }
    }
}
