//! Where the grants without a person find their material each time tokens are requested
//! ([`GrantSource`]): a workload's JWT read from its file ([`WorkloadToken`]: workload identity
//! tokens rotate, so the file is read afresh every time and never kept), and the ID token of the
//! person's sign-in at an enterprise identity provider, from the keyring ([`IdpSignIn`]: once
//! it has expired it is refreshed with the IdP's refresh token if there is one; otherwise the
//! server needs a sign-in, which a background connection shows as `AuthRequired`).
//!
//! The workload token file is read at every token request, at most 64 KiB; a missing, unreadable or
//! empty file is an error naming it.

use std::path::PathBuf;
use std::sync::Arc;

use gatehouse_mcp::Sensitive;
use gatehouse_mcp::auth::{AuthError, GrantSource, IdpClient, MachineGrant, http_client, idp};
use gatehouse_mcp::transport::BoxFuture;

use crate::store::secrets::{SecretStore, oauth};

/// The longest workload token file read, in bytes.
pub const MAX_WORKLOAD_TOKEN_BYTES: u64 = 64 * 1024;

/// The JWT-bearer grant with the JWT in a file (workload identity federation).
#[derive(Debug)]
pub struct WorkloadToken {
    path: PathBuf,
}

impl WorkloadToken {
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self { path: path.into() }
    }

    async fn read(&self) -> Result<MachineGrant, AuthError> {
        let path = self.path.display();
        let unreadable = |e: std::io::Error| {
            AuthError::Credential(format!(
                "cannot read the workload identity token file {path}: {e}"
            ))
        };
        let size = tokio::fs::metadata(&self.path)
            .await
            .map_err(unreadable)?
            .len();
        if size > MAX_WORKLOAD_TOKEN_BYTES {
            return Err(AuthError::Credential(format!(
                "the workload identity token file {path} is {size} bytes, more than a JWT \
                 ({MAX_WORKLOAD_TOKEN_BYTES} bytes at most)"
            )));
        }
        let text = tokio::fs::read_to_string(&self.path)
            .await
            .map_err(unreadable)?;
        let jwt = text.trim();
        if jwt.is_empty() {
            return Err(AuthError::Credential(format!(
                "the workload identity token file {path} is empty"
            )));
        }
        Ok(MachineGrant::JwtBearer {
            assertion: Sensitive::new(jwt.to_owned()),
        })
    }
}

impl GrantSource for WorkloadToken {
    fn grant(&self) -> BoxFuture<'_, Result<MachineGrant, AuthError>> {
        Box::pin(self.read())
    }
}

/// Enterprise-managed authorization with the kept sign-in at the identity provider.
pub struct IdpSignIn {
    secrets: Arc<dyn SecretStore>,
    idp: IdpClient,
}

impl std::fmt::Debug for IdpSignIn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IdpSignIn")
            .field("issuer", &self.idp.issuer)
            .field("client_id", &self.idp.client_id)
            .finish_non_exhaustive()
    }
}

impl IdpSignIn {
    pub fn new(secrets: Arc<dyn SecretStore>, idp: IdpClient) -> Self {
        Self { secrets, idp }
    }

    async fn current(&self) -> Result<MachineGrant, AuthError> {
        let store = |e: crate::error::HostError| AuthError::Store(e.to_string());
        let http = http_client::auth_http_client()?;
        let kept = oauth::idp_session(self.secrets.as_ref(), &self.idp.issuer, &self.idp.client_id)
            .await
            .map_err(store)?
            .ok_or(AuthError::NeedsUser)?;
        let session = if !kept.expired() {
            kept
        } else if kept.refresh_token.is_some() {
            match idp::refresh(&http, &self.idp, &kept).await {
                Ok(fresh) => {
                    oauth::put_idp_session(self.secrets.as_ref(), &fresh)
                        .await
                        .map_err(store)?;
                    fresh
                }
                Err(e) => {
                    tracing::info!(
                        "refreshing the sign-in at identity provider {} failed: {e}",
                        self.idp.issuer
                    );
                    return Err(AuthError::NeedsUser);
                }
            }
        } else {
            tracing::info!(
                "the sign-in at identity provider {} has expired",
                self.idp.issuer
            );
            return Err(AuthError::NeedsUser);
        };
        let metadata = idp::discover(&http, &self.idp.issuer).await?;
        Ok(MachineGrant::EnterpriseManaged {
            idp_token_endpoint: metadata.token_endpoint,
            idp_client_id: self.idp.client_id.clone(),
            idp_client_secret: self.idp.client_secret.clone(),
            id_token: session.id_token,
        })
    }
}

impl GrantSource for IdpSignIn {
    fn grant(&self) -> BoxFuture<'_, Result<MachineGrant, AuthError>> {
        Box::pin(self.current())
    }
}
