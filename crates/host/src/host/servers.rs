//! The configured servers as [`Host`] operations: listing them with their status, adding,
//! editing, removing, enabling and disabling them, and starting, stopping, restarting and
//! reconnecting one. An edit holds the sessions' serial guard from writing the registry to
//! applying the change.

use super::Host;
use crate::error::{HostError, Result};
use crate::sessions::status::{ServerStatus, ServerView};
use crate::store::registry::model::{ServerConfig, ServerInput};

/// Whether an edit carries a new secret value (which needs a reconnect to take effect).
fn secret_values_given(input: &ServerInput) -> bool {
    match &input.spec {
        crate::store::registry::model::ServerSpec::Stdio { env, .. } => {
            env.iter().any(|v| v.secret && !v.value.is_empty())
        }
        crate::store::registry::model::ServerSpec::Http { headers, .. } => {
            headers.iter().any(|h| h.secret && !h.value.is_empty())
        }
    }
}

impl Host {
    /// Every server with its status. It starts and stops nothing.
    pub async fn list_servers(&self) -> Result<Vec<ServerView>> {
        let configs = self.registry.list().await?;
        Ok(configs.into_iter().map(|c| self.view(c)).collect())
    }

    /// Every server's configuration, as stored, without its status.
    pub async fn server_configs(&self) -> Result<Vec<ServerConfig>> {
        self.registry.list().await
    }

    /// Every server's configuration, from memory in an engine that keeps the list (at most
    /// one poll of the store behind another process's change; see `Registry::list_kept`).
    pub async fn server_configs_kept(&self) -> Result<std::sync::Arc<Vec<ServerConfig>>> {
        self.registry.list_kept().await
    }

    /// Every server's configuration read from the store now, the list the engine keeps brought
    /// up to date with it (see `Registry::list_afresh`).
    pub async fn server_configs_afresh(&self) -> Result<std::sync::Arc<Vec<ServerConfig>>> {
        self.registry.list_afresh().await
    }

    pub async fn server(&self, id_or_name: &str) -> Result<ServerView> {
        Ok(self.view(self.registry.get(id_or_name).await?))
    }

    // An edit holds the sessions' serial guard from writing the registry to applying the
    // change, so the watcher of the store's changes cannot apply it a second time in between.

    pub async fn add_server(&self, input: ServerInput) -> Result<ServerView> {
        let serial = self.sessions.serial().await;
        let config = self.registry.add(input).await?;
        self.apply(&serial, config).await
    }

    pub async fn update_server(&self, id_or_name: &str, input: ServerInput) -> Result<ServerView> {
        let serial = self.sessions.serial().await;
        let before = self.registry.get(id_or_name).await?;
        let new_secret = secret_values_given(&input);
        let config = self.registry.update(id_or_name, input).await?;
        let only_roots =
            before.enabled == config.enabled && before.spec == config.spec && !new_secret;
        if self.live && only_roots && before.roots != config.roots {
            // A roots edit keeps the connection and tells the server instead.
            self.sessions.update_roots(&config);
            return Ok(self.view(config));
        }
        self.apply(&serial, config).await
    }

    pub async fn remove_server(&self, id_or_name: &str) -> Result<ServerConfig> {
        let serial = self.sessions.serial().await;
        let removed = self.registry.remove(id_or_name).await?;
        self.sessions.remove_held(&serial, &removed.id).await;
        self.registry.logs().remove(&removed.id);
        self.registry.traffic().forget(&removed.id);
        self.icons.forget(&removed.id);
        Ok(removed)
    }

    pub async fn set_enabled(&self, id_or_name: &str, enabled: bool) -> Result<ServerView> {
        let serial = self.sessions.serial().await;
        let config = self.registry.set_enabled(id_or_name, enabled).await?;
        self.apply(&serial, config).await
    }

    /// Starts a live session's server that was stopped, crashed or failed (or restarts a
    /// running one). The server must be enabled.
    pub async fn start_server(&self, id_or_name: &str) -> Result<ServerView> {
        self.reconnect(id_or_name).await
    }

    /// Stops a live session's server by hand, gracefully (see [`crate::StopGrace`]); it shows
    /// `Stopped` until started again. Its configuration is unchanged (it stays enabled).
    pub async fn stop_server(&self, id_or_name: &str) -> Result<ServerView> {
        let config = self.registry.get(id_or_name).await?;
        if self.live {
            self.sessions.stop(&config.id).await;
        }
        Ok(self.view(config))
    }

    /// Stops the server's connection and starts it again.
    pub async fn restart_server(&self, id_or_name: &str) -> Result<ServerView> {
        self.reconnect(id_or_name).await
    }

    /// Drops the server's connection and connects again.
    pub async fn reconnect(&self, id_or_name: &str) -> Result<ServerView> {
        let serial = self.sessions.serial().await;
        let config = self.registry.get(id_or_name).await?;
        if !config.enabled {
            return Err(HostError::Validation(format!(
                "`{}` is disabled; enable it to connect",
                config.name
            )));
        }
        self.apply(&serial, config).await
    }

    async fn apply(
        &self,
        serial: &crate::sessions::Serial<'_>,
        config: ServerConfig,
    ) -> Result<ServerView> {
        if self.live {
            self.sessions.restart_held(serial, &config).await;
        }
        Ok(self.view(config))
    }

    fn view(&self, config: ServerConfig) -> ServerView {
        let status = self
            .sessions
            .status(&config.id)
            .unwrap_or(if config.enabled {
                ServerStatus::Connecting
            } else {
                ServerStatus::Disabled
            });
        ServerView { config, status }
    }
}
