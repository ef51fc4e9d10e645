//! How a client presents itself to authorization servers: its name, its Client ID Metadata
//! Document URL if it has one, and the credentials it was given in advance, per issuer.

use super::machine_grant::MachineGrant;
use super::store::ClientCredentials;

/// Authorization settings for one MCP server connection.
#[derive(Debug, Clone)]
pub struct AuthConfig {
    /// `client_name` in Dynamic Client Registration.
    pub client_name: String,
    /// The HTTPS URL of the client's metadata document, used as `client_id` where the
    /// authorization server advertises `client_id_metadata_document_supported`.
    pub client_metadata_url: Option<String>,
    /// Credentials registered beforehand, each bound to its issuer; tried first.
    pub preregistered: Vec<ClientCredentials>,
    /// Most authorizations (including refreshes) one request may trigger before it fails
    /// (2026-07-28 basic/authorization, "Step-Up Authorization Flow": retry "no more than a
    /// few times").
    pub max_attempts: u32,
    /// Tokens without a person (authorization extensions); `None`: the authorization code flow.
    pub machine_grant: Option<MachineGrant>,
}

impl Default for AuthConfig {
    fn default() -> Self {
        Self {
            client_name: "Gatehouse".to_owned(),
            client_metadata_url: None,
            preregistered: Vec::new(),
            max_attempts: 3,
            machine_grant: None,
        }
    }
}
