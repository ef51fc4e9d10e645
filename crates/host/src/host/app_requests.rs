//! What a rendered MCP App may ask of its own server, through the host (SEP-1865,
//! "Standard MCP Messages" and "Sandbox proxy" §8): its UI resource, tool calls and resource
//! reads through the gate with the `app` source (so policy, approval and the audit log apply,
//! and the gate holds tool calls to their `visibility`), the server's lists, and
//! `sampling/createMessage` put to the person like a server's. Each call names the server the
//! view was rendered for; nothing here reaches another server.
//!
//! A view is its own caller (`view <uuid>`): its own share of the approval queue, its own grants.
//! `app_list_tools` leaves out tools not visible to apps; `app_create_message` takes the path a
//! server's sampling request takes (`Gate::answer_asked`: received, put to the person within the
//! view's share, answered, all on record) with the `app` source. The UI resource itself is read for
//! the person whose call shows it (source `user`), so rendering never asks. Before its policy is
//! built, `app_view` narrows the declared domains by the person's site lists (`apps::sites`, read
//! afresh for each view) and `apps::source_risk`, then writes a `render` decision row with the
//! view's URI, policy, permissions, domain, what the lists withheld and what was refused
//! (`AppView.withheld`, `AppView.refused`).

use std::future::Future;

use gatehouse_mcp::CallOptions;
use serde_json::{Value, json};

use super::Host;
use crate::apps::{self, AppView, ToolVisibility};
use crate::error::{HostError, Result};
use crate::oversight::audit::{AuditEvent, AuditKind};
use crate::oversight::gate::from_server::Asked;
use crate::oversight::gate::{Ask, CallOutcome, RequestKind, Source, Target, ToolCall};
use crate::sessions::LiveClient;
use crate::store::registry::model::ServerConfig;

impl Host {
    /// The UI resource `uri` of the server, read through the gate and made ready to render.
    /// The read is the host's, on behalf of the person whose call shows the view (source
    /// `user`: a deny rule stops it, nothing asks about it); what the view then asks for has
    /// the `app` source.
    pub async fn app_view(&self, server_id: &str, uri: &str) -> Result<AppView> {
        if !uri.starts_with("ui://") {
            return Err(HostError::Validation(format!(
                "`{uri}` is not an MCP App resource (ui:// URIs only)"
            )));
        }
        let (config, live) = self.app_server(server_id).await?;
        let contents = self
            .app_read(&config, &live, uri, Source::User, None)
            .await?;
        // The listing's `_meta.ui` fills in what the read item lacks; a server that lists no
        // resources (UI-only ones may be left out) is not an error.
        let listed = match live.client.list_resources().await {
            Ok(page) => page
                .items
                .into_iter()
                .find(|r| r.uri == uri)
                .and_then(|r| r.extra.get("_meta").cloned()),
            Err(_) => None,
        };
        let mut view = apps::view::view(&config.id, uri, &contents, listed.as_ref())?;
        // The person's global site lists may only take declared sources out ("No Loosening").
        // Local, private-network and whole-suffix sources are refused unless allowed there.
        let narrowed = self.app_sites().await?.narrow(&view.csp);
        if !(narrowed.withheld.is_empty() && narrowed.refused.is_empty()) {
            view.policy = apps::csp::policy(&narrowed.csp);
            view.csp = narrowed.csp;
            view.withheld = narrowed.withheld;
            view.refused = narrowed.refused;
        }
        // SEP-1865 "Host Behavior": the CSP a view runs under is kept for security review.
        tracing::info!(
            "app `{uri}` of `{}`: Content-Security-Policy {}",
            config.name,
            view.policy
        );
        self.record_view(&config.name, &view).await;
        Ok(view)
    }

    /// Puts a view about to be rendered on the audit log: a `render` decision naming the
    /// resource, the Content-Security-Policy it runs under and what it asked for, so a
    /// security review finds what each app was allowed to reach.
    async fn record_view(&self, server: &str, view: &AppView) {
        let event = AuditEvent {
            kind: AuditKind::Decision,
            server: Some(server.to_owned()),
            source: Some(Source::User.as_str().to_owned()),
            method: Some("resources/read".to_owned()),
            decision: Some("render".to_owned()),
            detail: json!({
                "uri": view.uri,
                "contentSecurityPolicy": view.policy,
                "permissions": view.permissions,
                "domain": view.domain,
                "withheld": view.withheld,
                "refused": view.refused,
            }),
            ..AuditEvent::default()
        };
        if let Err(e) = self.audit().append(event).await {
            tracing::warn!("cannot record the rendering of `{}`: {e}", view.uri);
        }
    }

    /// `tools/call` from the app view `view` (its caller id, `view <uuid>`) of `server_id`:
    /// through the gate with the `app` source; the gate refuses a tool that server does not
    /// list or whose visibility lacks `"app"`. Each view is its own asker.
    pub async fn app_call_tool(
        &self,
        server_id: &str,
        view: &str,
        tool: &str,
        arguments: Option<Value>,
        options: CallOptions,
        cancel: impl Future<Output = ()>,
    ) -> Result<CallOutcome> {
        let call = ToolCall {
            tool: tool.to_owned(),
            arguments,
            source: Source::App,
            caller: Some(view.to_owned()),
        };
        self.call_tool(server_id, call, options, cancel).await
    }

    /// `resources/read` from the app view `view` of `server_id`, through the gate; the result
    /// as JSON.
    pub async fn app_read_resource(&self, server_id: &str, view: &str, uri: &str) -> Result<Value> {
        let (config, live) = self.app_server(server_id).await?;
        let contents = self
            .app_read(&config, &live, uri, Source::App, Some(view))
            .await?;
        Ok(json!({ "contents": contents }))
    }

    /// `resources/list` of the app's own server.
    pub async fn app_list_resources(&self, server_id: &str) -> Result<Value> {
        let (_, live) = self.app_server(server_id).await?;
        let page = live.client.list_resources().await?;
        Ok(json!({ "resources": page.items }))
    }

    /// `resources/templates/list` of the app's own server.
    pub async fn app_list_resource_templates(&self, server_id: &str) -> Result<Value> {
        let (_, live) = self.app_server(server_id).await?;
        let page = live.client.list_resource_templates().await?;
        Ok(json!({ "resourceTemplates": page.items }))
    }

    /// `tools/list` of the app's own server: only the tools apps may call. Every definition
    /// listed goes into the policy's history, as with any listing.
    pub async fn app_list_tools(&self, server_id: &str) -> Result<Value> {
        let (config, live) = self.app_server(server_id).await?;
        let page = live.client.list_tools().await?;
        self.gate.tools_listed(&config.id, &page.items).await?;
        let tools: Vec<_> = page
            .items
            .into_iter()
            .filter(|t| apps::visible_to(t, ToolVisibility::App))
            .collect();
        Ok(json!({ "tools": tools }))
    }

    /// `sampling/createMessage` from the app of `server_id`: put to the person through the
    /// same approval as a server's (they write the reply or decline), within the app's own
    /// share of the approval queue, on record with the `app` source. A refusal is [`HostError::Denied`].
    pub async fn app_create_message(
        &self,
        server_id: &str,
        view: &str,
        params: Value,
    ) -> Result<Value> {
        let config = self.registry.get(server_id).await?;
        let asked = Asked {
            server: &config.name,
            server_id: &config.id,
            source: Source::App,
            caller: Some(view),
        };
        self.gate
            .answer_asked(
                asked,
                "sampling/createMessage".into(),
                Some(params),
                None,
                gatehouse_mcp::peer::Withdrawal::never(),
            )
            .await
            .map_err(|e| HostError::Denied {
                reason: e.message,
                rule: None,
            })
    }

    /// Reads `uri` of the server (its config and open connection) through the gate, for
    /// `source`.
    async fn app_read(
        &self,
        config: &ServerConfig,
        live: &LiveClient,
        uri: &str,
        source: Source,
        caller: Option<&str>,
    ) -> Result<Vec<gatehouse_mcp::ResourceContents>> {
        let target = Target {
            server: &config.name,
            server_id: &config.id,
            client: &live.client,
        };
        let ask = Ask {
            kind: RequestKind::ResourceRead {
                uri: uri.to_owned(),
            },
            source,
            caller: caller.map(str::to_owned),
        };
        self.gate
            .run(target, ask, live.client.read_resource(uri))
            .await
    }

    /// The server an app was rendered for, with its open connection.
    async fn app_server(&self, server_id: &str) -> Result<(ServerConfig, LiveClient)> {
        let config = self.registry.get(server_id).await?;
        let live = self.sessions.live(&config.id).ok_or_else(|| {
            HostError::NotConnected(format!(
                "`{}` is not connected; its app can reach it once it is",
                config.name
            ))
        })?;
        Ok((config, live))
    }
}
