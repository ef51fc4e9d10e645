//! Whether the running engine serves the gateway over HTTP, and on which port: one row of the
//! `gateway_http` table, set by `gatehouse gateway http on|off` and followed by the engine
//! ([`super::HttpGateway`]). Off by default; the default port is [`DEFAULT_PORT`].

use serde::Serialize;
use sqlx::Row;

use crate::error::{HostError, Result};
use crate::host::Host;
pub use crate::vocabulary::http_serving::HttpServing;

/// The port the endpoint listens on unless the person chose another.
pub const DEFAULT_PORT: u16 = 47821;

/// The endpoint's setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct HttpSettings {
    pub enabled: bool,
    pub port: u16,
}

impl HttpSettings {
    /// The endpoint's URL (whether or not it is on).
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.port)
    }
}

/// The setting and what this process does with it, for the window.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct HttpEndpoint {
    pub enabled: bool,
    pub port: u16,
    pub url: String,
    pub serving: HttpServing,
}

impl Host {
    /// The HTTP endpoint's setting and what this process serves.
    pub async fn gateway_http_endpoint(&self) -> Result<HttpEndpoint> {
        let settings = self.gateway_http().await?;
        Ok(HttpEndpoint {
            enabled: settings.enabled,
            port: settings.port,
            url: settings.url(),
            serving: self.http_serving(),
        })
    }

    /// The HTTP endpoint's setting.
    pub async fn gateway_http(&self) -> Result<HttpSettings> {
        let row = sqlx::query("SELECT enabled, port FROM gateway_http WHERE id = 1")
            .fetch_one(self.store().pool())
            .await?;
        let port: i64 = row.try_get("port")?;
        Ok(HttpSettings {
            enabled: row.try_get::<i64, _>("enabled")? != 0,
            port: u16::try_from(port)
                .map_err(|_| HostError::Corrupt(format!("the gateway's port {port} is not one")))?,
        })
    }

    /// Turns the HTTP endpoint on or off, on `port` when given (else the port it had). A
    /// running engine follows within about half a second.
    pub async fn set_gateway_http(&self, enabled: bool, port: Option<u16>) -> Result<HttpSettings> {
        if port == Some(0) {
            return Err(HostError::Validation(
                "the port must be 1 to 65535".to_owned(),
            ));
        }
        sqlx::query("UPDATE gateway_http SET enabled = ?, port = COALESCE(?, port) WHERE id = 1")
            .bind(i64::from(enabled))
            .bind(port.map(i64::from))
            .execute(self.store().pool())
            .await?;
        self.gateway_http().await
    }
}
