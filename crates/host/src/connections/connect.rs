//! Turns a stored server configuration into a live MCP client connection.
//!
//! The server's secret values are read from the keyring right before it is spawned, and the era
//! remembered for its configuration (`store::registry::era_cache`) is tried first, without the
//! probe. Only a protocol failure (not a failure to spawn or reach the server) probes again, and
//! the new finding corrects the record.

use std::path::PathBuf;
use std::sync::Arc;

use gatehouse_mcp::peer::Handler;
use gatehouse_mcp::transport::stderr::OutputHook;
use gatehouse_mcp::{
    Client, ClientOptions, EraChoice, HttpConfig, HttpMode, McpError, StdioConfig,
};

use crate::connections::server_requests::{Declared, HostHandler};
use crate::error::{HostError, Result};
use crate::oversight::audit::KnownSecrets;
use crate::running::env_refs::{self, Environment};
use crate::running::launch::Launcher;
use crate::running::server_logs::output::ServerStderr;
use crate::store::registry::Registry;
use crate::store::registry::model::{OAuthGrant, ServerConfig, ServerSpec, ServerTransport};
use crate::store::registry::secret_values::{self, SecretValue};
use crate::store::secrets::SecretKind;

/// Connects to a server and settles its era. Secret values are read from the keyring here, at
/// the last moment, and live only in the child's environment or the request headers.
/// Nobody answers its sampling or elicitation requests, so it declares only roots.
pub async fn open_client(config: &ServerConfig, registry: &Registry) -> Result<Client> {
    let handler = Arc::new(HostHandler::for_config(config));
    open_client_with(config, registry, handler, Declared::default()).await
}

/// Like [`open_client`], with the handler that answers the server's requests; `declared` says
/// whether a person answers sampling and elicitation, and whether views are rendered (only
/// then are they declared). The era
/// found last time is tried first, without the probe; if that fails for a protocol reason, the
/// server is probed again and the new finding kept.
pub async fn open_client_with(
    config: &ServerConfig,
    registry: &Registry,
    handler: Arc<dyn Handler>,
    declared: Declared,
) -> Result<Client> {
    let secrets = secret_values::resolve(registry.secrets(), config).await?;
    let remembered = registry.remembered_era(config).await;
    let cached = remembered.as_ref().map(|(era, _)| *era);
    let choice = match cached {
        Some(gatehouse_mcp::Era::Modern) => EraChoice::Modern,
        Some(gatehouse_mcp::Era::Legacy) => EraChoice::Legacy,
        None => EraChoice::Auto,
    };
    let reason = remembered
        .as_ref()
        .map(|(_, at)| format!("remembered from a connection on {}", when(at)));
    let launcher = registry.launcher();
    let client = match connect(
        config,
        &secrets,
        registry,
        choice,
        reason,
        handler.clone(),
        declared,
        launcher,
    )
    .await
    {
        Err(HostError::Connection(e)) if cached.is_some() && era_may_be_wrong(&e) => {
            tracing::info!(
                "`{}` failed as {choice:?} ({e}); probing its era again",
                config.name
            );
            connect(
                config,
                &secrets,
                registry,
                EraChoice::Auto,
                None,
                handler,
                declared,
                launcher,
            )
            .await?
        }
        other => other?,
    };
    if cached != Some(client.era())
        && let Err(e) = registry.remember_era(config, client.era()).await
    {
        tracing::warn!("cannot remember the era of `{}`: {e}", config.name);
    }
    Ok(client)
}

/// `2026-05-01T12:00:00.123Z` as `2026-05-01 12:00 UTC`.
fn when(at: &str) -> String {
    match (at.get(..10), at.get(11..16)) {
        (Some(day), Some(time)) => format!("{day} {time} UTC"),
        _ => at.to_owned(),
    }
}

/// The extension identifier of enterprise-managed authorization, declared in the capabilities
/// of a connection to a server that uses it.
pub const ENTERPRISE_MANAGED_EXTENSION: &str =
    "io.modelcontextprotocol/enterprise-managed-authorization";

/// Protocol-level failures that a wrong era explains (an HTTP status included: a legacy server
/// refuses a modern request without a session); not being able to start or reach the server is
/// something else.
fn era_may_be_wrong(error: &McpError) -> bool {
    matches!(
        error,
        McpError::Rpc { .. }
            | McpError::UnsupportedVersion { .. }
            | McpError::InvalidResponse { .. }
            | McpError::MalformedResponse { .. }
            | McpError::Timeout { .. }
    ) || matches!(error, McpError::RequestFailed { .. } if error.http_status().is_some())
}

/// Connects to a server with its secret values (resolved from the keyring). A stdio server's
/// stderr is redacted of them where it enters the host, then kept in its log.
#[allow(clippy::too_many_arguments)]
async fn connect(
    config: &ServerConfig,
    secrets: &[SecretValue],
    registry: &Registry,
    era: EraChoice,
    era_reason: Option<String>,
    handler: Arc<dyn Handler>,
    declared: Declared,
    launcher: &Launcher,
) -> Result<Client> {
    let mut capabilities = HostHandler::capabilities(declared);
    if let ServerSpec::Http { oauth, .. } = &config.spec
        && oauth.grant == OAuthGrant::EnterpriseManaged
    {
        // extensions/auth/enterprise-managed-authorization, "For MCP clients" 1: the client
        // declares the extension it supports in its capabilities.
        // Beside the others it declares (the apps extension).
        if let serde_json::Value::Object(extensions) = capabilities
            .entry("extensions")
            .or_insert_with(|| serde_json::json!({}))
        {
            extensions.insert(ENTERPRISE_MANAGED_EXTENSION.into(), serde_json::json!({}));
        }
    }
    let options = ClientOptions {
        capabilities,
        era,
        era_reason,
        ..ClientOptions::default()
    };
    match &config.spec {
        ServerSpec::Stdio {
            command,
            args,
            env,
            cwd,
            stop,
        } => {
            let mut stdio = StdioConfig::new(command.clone());
            stdio.args.clone_from(args);
            stdio.env = env
                .iter()
                .filter(|v| !v.secret)
                .map(|v| (v.key.clone(), v.value.clone()))
                .collect();
            stdio.secret_env = secrets
                .iter()
                .map(|s| (s.name.clone(), s.value.clone()))
                .collect();
            stdio.cwd = cwd.as_ref().map(PathBuf::from);
            let environment = Environment::new(&launcher.login_env().await.vars);
            let expanded = env_refs::expand_stdio(
                &environment,
                &mut stdio.command,
                &mut stdio.args,
                &mut stdio.cwd,
                &mut stdio.env,
                &mut stdio.secret_env,
            );
            let secrets = KnownSecrets::new(
                secrets
                    .iter()
                    .map(|s| s.value.expose().clone())
                    .chain(expanded),
            );
            let options = ClientOptions {
                tap: Some(registry.traffic().tap(&config.id, secrets.clone())),
                ..options
            };
            stdio.output = Some(OutputHook(Arc::new(ServerStderr::new(
                &config.id,
                secrets,
                registry.logs().clone(),
            ))));
            if let Some(dir) = &stdio.cwd
                && !dir.is_dir()
            {
                return Err(HostError::Validation(format!(
                    "the working directory {} does not exist",
                    dir.display()
                )));
            }
            launcher.prepare(&config.id, &mut stdio, *stop).await;
            let client = Client::connect_stdio(&stdio, options, handler).await?;
            Ok(client)
        }
        ServerSpec::Http {
            url,
            transport,
            headers,
            ..
        } => {
            let url = url::Url::parse(url)
                .map_err(|e| HostError::Validation(format!("invalid URL `{url}`: {e}")))?;
            let mut http = HttpConfig::new(url);
            http.headers = headers
                .iter()
                .filter(|h| !h.secret)
                .map(|h| (h.name.clone(), h.value.clone()))
                .collect();
            http.secret_headers = secrets
                .iter()
                .filter(|s| s.kind == SecretKind::Header)
                .map(|s| (s.name.clone(), s.value.clone()))
                .collect();
            let environment = Environment::new(&launcher.login_env().await.vars);
            env_refs::expand_headers(&environment, &mut http.headers, &mut http.secret_headers);
            let known = KnownSecrets::new(
                http.secret_headers
                    .iter()
                    .map(|(_, value)| value.expose().clone())
                    .chain(secrets.iter().map(|s| s.value.expose().clone())),
            );
            let options = ClientOptions {
                tap: Some(registry.traffic().tap(&config.id, known)),
                ..options
            };
            // Tokens kept in the keyring are sent and refreshed; nobody is asked to sign in
            // here (see `crate::connections::oauth_connection`).
            let authorizer = crate::connections::oauth_connection::authorizer(
                config,
                &http.url,
                registry.shared_secrets(),
                None,
            )
            .await?;
            http.authorizer = Some(Arc::new(authorizer));
            let mode = match transport {
                ServerTransport::Auto => HttpMode::Auto,
                ServerTransport::StreamableHttp => HttpMode::StreamableHttp,
                ServerTransport::Sse => HttpMode::Sse,
            };
            let client = Client::connect_http(&http, mode, options, handler).await?;
            Ok(client)
        }
    }
}
