//! How stdio servers are started: with the login shell's environment (for the app, see
//! [`login_env`](crate::running::login_env)), their stop waits, and a record of their process
//! groups in the database (see [`process_groups`](crate::running::process_groups)). Gatehouse's own
//! secrets in its environment (a `GATEHOUSE_` variable naming a secret, token, password or key,
//! such as `GATEHOUSE_IDP_CLIENT_SECRET`) are removed from what a server inherits
//! (`StdioConfig::env_remove`); a server's own configuration may still set any name.
//!
//! The [`Launcher`] is kept by the `Registry`, so every connection (a live session, a CLI
//! command, `connect::open_client`) starts its server the same way.

use std::path::PathBuf;
use std::sync::Arc;

use gatehouse_mcp::StdioConfig;
use tokio::sync::OnceCell;

use super::stop_grace::StopGrace;
use crate::running::login_env::{self, LoginEnv};
use crate::running::process_groups::GroupLog;

/// What every stdio server of this process is started with.
#[derive(Debug, Default)]
pub struct Launcher {
    /// The shell whose login environment servers get; `None`: this process's environment.
    login_shell: Option<PathBuf>,
    login_env: OnceCell<LoginEnv>,
    groups: Option<GroupLog>,
}

impl Launcher {
    /// Servers get the login environment of `login_shell` (asked once, at the first start), and
    /// their process groups are recorded through `groups`.
    pub(crate) fn new(login_shell: Option<PathBuf>, groups: Option<GroupLog>) -> Self {
        Self {
            login_shell,
            login_env: OnceCell::new(),
            groups,
        }
    }

    /// What servers get on top of this process's environment (empty without a login shell).
    pub async fn login_env(&self) -> &LoginEnv {
        self.login_env
            .get_or_init(|| async {
                match &self.login_shell {
                    Some(shell) => login_env::resolve(shell).await,
                    None => LoginEnv::default(),
                }
            })
            .await
    }

    /// Fills in what a server's own configuration does not say: the login environment under
    /// its own variables, its stop waits, and the record of its group.
    pub(crate) async fn prepare(&self, server_id: &str, stdio: &mut StdioConfig, stop: StopGrace) {
        let base = self.login_env().await;
        if !base.vars.is_empty() {
            let own = std::mem::take(&mut stdio.env);
            stdio.env = base
                .vars
                .iter()
                .filter(|(name, _)| !is_own_secret(name))
                .cloned()
                .chain(own)
                .collect();
        }
        stdio.env_remove = std::env::vars_os()
            .filter_map(|(name, _)| name.into_string().ok())
            .filter(|name| is_own_secret(name))
            .collect();
        stdio.stop_grace = stop.stdin();
        stdio.term_grace = stop.term();
        stdio.groups = self.groups.as_ref().map(|g| g.for_server(server_id));
    }

    /// Waits until every group change so far is in the database.
    pub(crate) async fn flush(&self) {
        if let Some(groups) = &self.groups {
            groups.flush().await;
        }
    }
}

/// Whether an environment variable is one of Gatehouse's own secrets: a `GATEHOUSE_` variable
/// naming a secret, token, password or key (`GATEHOUSE_OAUTH_CLIENT_SECRET`,
/// `GATEHOUSE_IDP_CLIENT_SECRET`). A server's own configuration may still set such a name.
pub(crate) fn is_own_secret(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("GATEHOUSE_") else {
        return false;
    };
    rest.split('_').any(|word| {
        matches!(
            word,
            "SECRET" | "TOKEN" | "PASSWORD" | "KEY" | "CREDENTIALS"
        )
    })
}

/// A launcher shared by the registry's clones.
pub(crate) type SharedLauncher = Arc<Launcher>;

#[cfg(test)]
mod tests {
    use super::is_own_secret;

    #[test]
    fn gatehouses_own_secret_variables_are_recognised_and_nothing_else() {
        for own in [
            "GATEHOUSE_IDP_CLIENT_SECRET",
            "GATEHOUSE_OAUTH_CLIENT_SECRET",
            "GATEHOUSE_AUDIT_TOKEN",
            "GATEHOUSE_SIGNING_KEY",
        ] {
            assert!(is_own_secret(own), "{own}");
        }
        for other in [
            "GATEHOUSE_DATA_DIR",
            "GATEHOUSE_LOG",
            "GATEHOUSE_KEYRING_DIR",
            "API_TOKEN",
            "CLIENT_SECRET",
            "XGATEHOUSE_SECRET",
        ] {
            assert!(!is_own_secret(other), "{other}");
        }
    }
}
