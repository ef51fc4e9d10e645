//! Turns a stored server configuration into a live MCP client connection.

use std::path::PathBuf;
use std::sync::Arc;

use gatehouse_mcp::peer::Handler;
use gatehouse_mcp::{Client, ClientOptions, HttpConfig, HttpMode, StdioConfig};

use crate::error::{HostError, Result};
use crate::registry::model::{ServerConfig, ServerSpec, ServerTransport};
use crate::registry::secret_values;
use crate::secrets::SecretStore;
use crate::server_requests::HostHandler;

/// Connects to a server and completes the handshake. Secret values are read from the keyring
/// here, at the last moment, and live only in the child's environment or the request headers.
pub async fn open_client(config: &ServerConfig, secrets: &dyn SecretStore) -> Result<Client> {
    open_client_with(config, secrets, Arc::new(HostHandler::for_config(config))).await
}

/// Like [`open_client`], with the handler that answers the server's requests.
pub async fn open_client_with(
    config: &ServerConfig,
    secrets: &dyn SecretStore,
    handler: Arc<dyn Handler>,
) -> Result<Client> {
    let config = secret_values::resolve(secrets, config).await?;
    let options = ClientOptions {
        capabilities: HostHandler::capabilities(),
        ..ClientOptions::default()
    };
    match &config.spec {
        ServerSpec::Stdio {
            command,
            args,
            env,
            cwd,
        } => {
            let mut stdio = StdioConfig::new(command.clone());
            stdio.args.clone_from(args);
            stdio.env = env
                .iter()
                .map(|v| (v.key.clone(), v.value.clone()))
                .collect();
            stdio.cwd = cwd.as_ref().map(PathBuf::from);
            if let Some(dir) = &stdio.cwd
                && !dir.is_dir()
            {
                return Err(HostError::Validation(format!(
                    "the working directory {} does not exist",
                    dir.display()
                )));
            }
            let client = Client::connect_stdio(&stdio, options, handler).await?;
            Ok(client)
        }
        ServerSpec::Http {
            url,
            transport,
            headers,
        } => {
            let url = url::Url::parse(url)
                .map_err(|e| HostError::Validation(format!("invalid URL `{url}`: {e}")))?;
            let mut http = HttpConfig::new(url);
            http.headers = headers
                .iter()
                .map(|h| (h.name.clone(), h.value.clone()))
                .collect();
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
