//! An HTTP server's OAuth client settings checked: the grant, the pre-registered client, the
//! issuers (HTTPS only) and the client metadata URL.

use std::path::Path;

use super::invalid::invalid;
use crate::error::Result;
use crate::store::registry::model::{OAuthClientSettings, OAuthGrant};

/// The OAuth client settings trimmed, empty ones dropped (an empty secret stays: on edit it
/// keeps the one in the keyring). A client id is bound to its issuer, and a secret to its
/// client id; URLs as the authorization spec wants them. The issuer is kept as typed: it is
/// compared with the metadata's byte for byte.
pub(super) fn validate_oauth(oauth: OAuthClientSettings) -> Result<OAuthClientSettings> {
    let given = |v: Option<String>| v.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
    let settings = OAuthClientSettings {
        issuer: given(oauth.issuer),
        client_id: given(oauth.client_id),
        client_secret: oauth.client_secret.map(|s| s.trim().to_owned()),
        client_metadata_url: given(oauth.client_metadata_url),
        grant: oauth.grant,
        private_key: oauth.private_key.map(|s| s.trim().to_owned()),
        assertion_file: given(oauth.assertion_file),
        idp_issuer: given(oauth.idp_issuer),
        idp_client_id: given(oauth.idp_client_id),
        idp_client_secret: oauth.idp_client_secret.map(|s| s.trim().to_owned()),
    };
    match settings.grant {
        OAuthGrant::ClientCredentials
            if settings.client_id.is_none()
                || (settings.client_secret.is_none() && settings.private_key.is_none()) =>
        {
            return Err(invalid(
                "the client credentials grant needs a pre-registered client: its issuer, client id, and its secret or private key",
            ));
        }
        OAuthGrant::JwtBearer if settings.client_id.is_none() => {
            return Err(invalid(
                "the JWT-bearer grant (workload identity) needs the client registered for the workload at the server's authorization server: its issuer and client id",
            ));
        }
        OAuthGrant::JwtBearer if settings.assertion_file.is_none() => {
            return Err(invalid(
                "the JWT-bearer grant (workload identity) needs the path of the file holding the workload's JWT",
            ));
        }
        OAuthGrant::EnterpriseManaged if settings.client_id.is_none() => {
            return Err(invalid(
                "enterprise-managed authorization needs Gatehouse's client at the server's authorization server: its issuer and client id",
            ));
        }
        OAuthGrant::EnterpriseManaged
            if settings.idp_issuer.is_none() || settings.idp_client_id.is_none() =>
        {
            return Err(invalid(
                "enterprise-managed authorization needs the identity provider's issuer URL and Gatehouse's client id there",
            ));
        }
        _ => {}
    }
    if settings.private_key.is_some() && settings.grant != OAuthGrant::ClientCredentials {
        return Err(invalid(
            "a client private key is only used with the client credentials grant",
        ));
    }
    if let Some(path) = &settings.assertion_file {
        if settings.grant != OAuthGrant::JwtBearer {
            return Err(invalid(
                "a workload token file is only used with the JWT-bearer grant",
            ));
        }
        if !Path::new(path).is_absolute() {
            return Err(invalid(format!(
                "the workload token file `{path}` must be an absolute path"
            )));
        }
    }
    let idp_set = settings.idp_issuer.is_some()
        || settings.idp_client_id.is_some()
        || settings.idp_client_secret.is_some();
    if idp_set && settings.grant != OAuthGrant::EnterpriseManaged {
        return Err(invalid(
            "an identity provider is only used with enterprise-managed authorization",
        ));
    }
    if let Some(issuer) = &settings.idp_issuer {
        secure_issuer(issuer, "identity provider issuer")?;
    }
    if let Some(issuer) = &settings.issuer {
        secure_issuer(issuer, "OAuth issuer")?;
    }
    if settings.client_id.is_some() && settings.issuer.is_none() {
        return Err(invalid(
            "an OAuth client id needs the issuer URL of the authorization server it is registered with",
        ));
    }
    if settings.client_secret.is_some() && settings.client_id.is_none() {
        return Err(invalid("an OAuth client secret needs its client id"));
    }
    if let Some(raw) = &settings.client_metadata_url {
        let url = url::Url::parse(raw)
            .map_err(|e| invalid(format!("invalid client metadata URL `{raw}`: {e}")))?;
        // 2026-07-28 basic/authorization/client-registration: an https URL with a path.
        if url.scheme() != "https" || url.path().len() <= 1 {
            return Err(invalid(format!(
                "invalid client metadata URL `{raw}`: it must be an https URL with a path"
            )));
        }
    }
    Ok(settings)
}

/// An issuer URL must be `https` (plain `http` only on this computer: 2025-11-25
/// basic/authorization, "Communication Security").
pub(super) fn secure_issuer(issuer: &str, what: &str) -> Result<()> {
    let url =
        url::Url::parse(issuer).map_err(|e| invalid(format!("invalid {what} `{issuer}`: {e}")))?;
    let loopback = matches!(url.host_str(), Some("127.0.0.1" | "localhost" | "[::1]"));
    if !(url.scheme() == "https" || (url.scheme() == "http" && loopback)) {
        return Err(invalid(format!(
            "invalid {what} `{issuer}`: it must be an https URL (http only on this computer)"
        )));
    }
    Ok(())
}
