//! A connected server's icon for the window: the best of its `serverInfo.icons` that passes the
//! checks of [`crate::icons`], as a `data:` URI.

use crate::Host;
use crate::ServerSpec;
use crate::error::Result;
use crate::icons::IconOrigin;

impl Host {
    /// The icon of the connected server with this id (or name), for a window whose theme is
    /// `theme` (`light` or `dark`); `None` when it declares none that may be shown. A remote
    /// server's icons are fetched only from its own origin; a stdio server's from any `https:`
    /// host, since the process could reach the network itself.
    pub async fn server_icon(&self, server: &str, theme: Option<&str>) -> Result<Option<String>> {
        let config = self.registry.get(server).await?;
        let client = self.live_session(&config).await?.client;
        let origin = match &config.spec {
            ServerSpec::Stdio { .. } => IconOrigin::Any,
            ServerSpec::Http { url, .. } => match url::Url::parse(url) {
                Ok(url) => IconOrigin::Same(url),
                Err(_) => return Ok(None),
            },
        };
        let declared = client
            .initialize_result()
            .server_info
            .extra
            .get("icons")
            .cloned();
        Ok(self
            .icons
            .resolve(&config.id, declared.as_ref(), theme, &origin)
            .await)
    }
}
