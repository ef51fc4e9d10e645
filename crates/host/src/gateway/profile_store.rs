//! Where the gateway's [`Profile`]s are kept: the default profile's settings in
//! `gateway_default_profile`, each client's own in `clients.profile` (JSON, no secrets), and a
//! change counter (`gateway_profile_changes`) that triggers move on in the changing
//! transaction, whichever process makes the change. A client Gatehouse does not know (an agent
//! started as `gatehouse mcp --client NAME` with a name never added) is served the default
//! profile. A change naming a server or tool Gatehouse does not know is refused whole.

use serde::Serialize;
use sqlx::SqlitePool;

use super::profiles::{Profile, ProfileChange, Served};
use crate::error::{HostError, Result};
use crate::host::Host;

/// A client's profile: its own settings, and what it is served (those over the default's).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ClientProfile {
    /// The client's name; `None` for the default profile.
    pub client: Option<String>,
    /// The settings it sets itself (for the default profile: the person's defaults).
    pub own: Profile,
    /// What it is served: its own settings over the default profile's.
    pub effective: Profile,
    pub limits: super::profiles::Limits,
}

/// The profiles, on the store's database.
pub struct Profiles<'a> {
    host: &'a Host,
    pool: &'a SqlitePool,
}

impl Host {
    /// The gateway clients' profiles.
    pub fn client_profiles(&self) -> Profiles<'_> {
        Profiles {
            host: self,
            pool: self.store().pool(),
        }
    }
}

impl Profiles<'_> {
    /// The default profile's settings.
    pub async fn default_settings(&self) -> Result<Profile> {
        let text: String =
            sqlx::query_scalar("SELECT profile FROM gateway_default_profile WHERE id = 1")
                .fetch_one(self.pool)
                .await?;
        parse(&text)
    }

    /// What the agent named `client` is served: a known client's own settings over the default
    /// profile's; the default profile for a name Gatehouse does not know.
    pub async fn served(&self, client: &str) -> Result<Served> {
        let own: Option<(Option<String>, bool)> =
            sqlx::query_as("SELECT profile, prefix FROM clients WHERE name = ?")
                .bind(client)
                .fetch_optional(self.pool)
                .await?;
        let default = self.default_settings().await?;
        let profile = match own.as_ref().and_then(|(text, _)| text.as_deref()) {
            Some(text) => parse(text)?.over(&default),
            None => default,
        };
        Ok(Served {
            client: client.to_owned(),
            known: own.is_some(),
            profile,
            prefix: own.is_none_or(|(_, prefix)| prefix),
        })
    }

    /// A known client's profile (`None`: the default profile).
    pub async fn get(&self, client: Option<&str>) -> Result<ClientProfile> {
        let default = self.default_settings().await?;
        let own = match client {
            None => default.clone(),
            Some(name) => self.own(name).await?,
        };
        let effective = match client {
            None => default,
            Some(_) => own.over(&default),
        };
        Ok(ClientProfile {
            client: client.map(str::to_owned),
            limits: effective.limits(),
            own,
            effective,
        })
    }

    /// Applies `change` to a known client's profile (`None`: the default profile), all of it
    /// or, when it names a server or tool Gatehouse does not know, none of it.
    pub async fn set(&self, client: Option<&str>, change: &ProfileChange) -> Result<ClientProfile> {
        if change.is_empty() {
            return Err(HostError::Validation(
                "nothing to change: give --server, --tool, --resources, --prompts, a limit or --default-limits"
                    .to_owned(),
            ));
        }
        change.check_limits().map_err(HostError::Validation)?;
        self.check_known(change).await?;
        let current = match client {
            None => self.default_settings().await?,
            Some(name) => self.own(name).await?,
        };
        let text = serde_json::to_string(&current.with(change))
            .map_err(|e| HostError::Protocol(format!("cannot encode the profile: {e}")))?;
        match client {
            None => {
                sqlx::query("UPDATE gateway_default_profile SET profile = ? WHERE id = 1")
                    .bind(text)
                    .execute(self.pool)
                    .await?;
            }
            Some(name) => {
                sqlx::query("UPDATE clients SET profile = ? WHERE name = ?")
                    .bind(text)
                    .bind(name)
                    .execute(self.pool)
                    .await?;
            }
        }
        self.get(client).await
    }

    /// A known client's own settings.
    async fn own(&self, client: &str) -> Result<Profile> {
        let row: Option<Option<String>> =
            sqlx::query_scalar("SELECT profile FROM clients WHERE name = ?")
                .bind(client)
                .fetch_optional(self.pool)
                .await?;
        match row {
            None => Err(HostError::NotFound(format!(
                "no client named `{client}` (add it with `gatehouse clients add {client}`; an agent Gatehouse does not know gets the default profile: `--default`)"
            ))),
            Some(None) => Ok(Profile::default()),
            Some(Some(text)) => parse(&text),
        }
    }

    /// Refuses a change naming a server that is not configured, or a tool its server has never
    /// listed (Gatehouse knows a server's tools once it has listed them).
    async fn check_known(&self, change: &ProfileChange) -> Result<()> {
        let servers = self.host.list_servers().await?;
        let id_of = |name: &str| {
            servers
                .iter()
                .find(|view| view.config.name == name)
                .map(|view| view.config.id.clone())
                .ok_or_else(|| {
                    HostError::NotFound(format!(
                        "no server named `{name}` (`gatehouse server list` shows them); nothing was changed"
                    ))
                })
        };
        for switch in &change.servers {
            id_of(&switch.server)?;
        }
        for switch in &change.tools {
            let id = id_of(&switch.server)?;
            let known: Option<i64> = sqlx::query_scalar(
                "SELECT 1 FROM tool_definitions WHERE server_id = ? AND tool = ? LIMIT 1",
            )
            .bind(&id)
            .bind(&switch.tool)
            .fetch_optional(self.pool)
            .await?;
            if known.is_none() {
                return Err(HostError::NotFound(format!(
                    "server `{}` has no tool `{}` that Gatehouse knows (`gatehouse tools {}` lists them); nothing was changed",
                    switch.server, switch.tool, switch.server
                )));
            }
        }
        Ok(())
    }
}

fn parse(text: &str) -> Result<Profile> {
    serde_json::from_str(text)
        .map_err(|e| HostError::Corrupt(format!("a stored client profile is not valid: {e}")))
}
