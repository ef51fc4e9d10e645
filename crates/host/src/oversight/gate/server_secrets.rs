//! The secret values (secret env values and headers, from the keyring) of the servers the gate has
//! sent requests to, so the audit log can hide them wherever they turn up in arguments, results or
//! errors. They are read once per configuration of a server (again after an edit) and kept only in
//! memory, as `Sensitive` values (`KnownSecrets` prints only their count). An HTTP server's OAuth
//! tokens are read from the keyring with them and noted in [`crate::store::secrets::tokens_seen`],
//! where every token the connections load or save later (a refresh, a sign-in) is noted too, so the
//! audit log hides those as well.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use gatehouse_mcp::Sensitive;

use crate::error::Result;
use crate::oversight::audit::AuditLog;
use crate::store::registry::Registry;
use crate::store::registry::secret_values;

/// A server's secret values and the configuration version (`updated_at`) they were read for.
type Known = HashMap<String, (String, Vec<Sensitive<String>>)>;

/// Each server's secret values, by id.
#[derive(Debug, Default, Clone)]
pub(super) struct ServerSecrets {
    by_server: Arc<Mutex<Known>>,
}

impl ServerSecrets {
    /// Makes sure `audit` hides the secret values of `server_id` (and of every server seen),
    /// as of its configuration's `version` (its `updated_at`).
    pub(super) async fn learn(
        &self,
        registry: &Registry,
        server_id: &str,
        version: &str,
        audit: &AuditLog,
    ) -> Result<()> {
        let known = self
            .lock()
            .get(server_id)
            .is_some_and(|(known, _)| known == version);
        if known {
            return Ok(());
        }
        let config = registry.get(server_id).await?;
        let mut values: Vec<Sensitive<String>> =
            secret_values::resolve(registry.secrets(), &config)
                .await?
                .into_iter()
                .map(|secret| secret.value)
                .collect();
        // What its `${VAR}` references bring in from the environment (a token, often).
        values.extend(referenced_values(&config.spec, &values));
        if matches!(
            config.spec,
            crate::store::registry::model::ServerSpec::Http { .. }
        ) {
            // A server without tokens, or a keyring that cannot be read now, leaves nothing to
            // note; the token store notes what a connection loads.
            match crate::store::secrets::oauth::tokens(registry.secrets(), server_id).await {
                Ok(Some(tokens)) => crate::store::secrets::tokens_seen::saw(server_id, &tokens),
                Ok(None) => {}
                Err(e) => tracing::debug!("cannot read the OAuth tokens of {server_id}: {e}"),
            }
        }
        let all = {
            let mut by_server = self.lock();
            by_server.insert(server_id.to_owned(), (config.updated_at, values));
            by_server
                .values()
                .flat_map(|(_, values)| values.iter().map(|v| v.expose().clone()))
                .collect()
        };
        audit.set_secrets(all);
        Ok(())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Known> {
        self.by_server
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

/// The secret values the `${VAR}` references of a server's configuration bring in from this
/// process's environment (in its command, arguments, working directory, env and header values,
/// and secret values that are one reference), as the server gets them when it starts: those
/// the secrets classifier calls secret by the variable's name or the value (a `${HOME}` path is
/// not hidden).
fn referenced_values(
    spec: &crate::store::registry::model::ServerSpec,
    secrets: &[Sensitive<String>],
) -> Vec<Sensitive<String>> {
    use crate::store::registry::model::ServerSpec;
    let environment = crate::running::env_refs::Environment::new(&[]);
    let mut texts: Vec<&str> = secrets.iter().map(|v| v.expose().as_str()).collect();
    match spec {
        ServerSpec::Stdio {
            command,
            args,
            env,
            cwd,
            ..
        } => {
            texts.push(command);
            texts.extend(args.iter().map(String::as_str));
            texts.extend(env.iter().map(|v| v.value.as_str()));
            texts.extend(cwd.as_deref());
        }
        ServerSpec::Http { headers, .. } => {
            texts.extend(headers.iter().map(|h| h.value.as_str()));
        }
    }
    texts
        .into_iter()
        .flat_map(|text| environment.referenced(text))
        .filter(|(name, value)| {
            crate::agents::secrets::classify(Some(name), value, false).is_some()
        })
        .map(|(_, value)| Sensitive::new(value))
        .collect()
}
