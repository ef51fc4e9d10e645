//! What the import preview shows of a server: its launch as Gatehouse will store it, with every
//! secret value masked (the value itself stays in memory until it goes to the keyring), the
//! environment variables it names, and what is worth a warning.

use serde::Serialize;

use crate::store::registry::model::ServerSpec;

use super::convert::{Converted, MovedSecret};

/// One env variable or header as shown: the value, or the masked value of a secret.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Shown {
    pub name: String,
    pub value: String,
    pub secret: bool,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Preview {
    /// `stdio` or `http`.
    pub kind: &'static str,
    pub enabled: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<Shown>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transport: Option<&'static str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub headers: Vec<Shown>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub roots: Vec<String>,
    /// The values that go to the keyring.
    pub secrets: Vec<MovedSecret>,
    /// The environment variables its values name, read when Gatehouse starts it.
    pub references: Vec<String>,
    pub warnings: Vec<String>,
}

pub fn of(converted: &Converted) -> Preview {
    let masked = |name: &str, value: &str, secret: bool| Shown {
        name: name.to_owned(),
        value: if secret {
            converted
                .secrets
                .iter()
                .find(|s| s.name == name)
                .map(|s| s.masked.clone())
                .unwrap_or_else(|| super::mask::mask(value))
        } else {
            value.to_owned()
        },
        secret,
    };
    let input = &converted.input;
    let mut preview = Preview {
        kind: input.spec.kind(),
        enabled: input.enabled,
        command: None,
        args: Vec::new(),
        cwd: None,
        env: Vec::new(),
        url: None,
        transport: None,
        headers: Vec::new(),
        roots: input.roots.clone(),
        secrets: converted.secrets.clone(),
        references: converted.references.clone(),
        warnings: converted.warnings.clone(),
    };
    match &input.spec {
        ServerSpec::Stdio {
            command,
            args,
            env,
            cwd,
            ..
        } => {
            preview.command = Some(command.clone());
            preview.args.clone_from(args);
            preview.cwd.clone_from(cwd);
            preview.env = env
                .iter()
                .map(|v| masked(&v.key, &v.value, v.secret))
                .collect();
        }
        ServerSpec::Http {
            url,
            transport,
            headers,
            ..
        } => {
            preview.url = Some(url.clone());
            preview.transport = Some(transport.as_str());
            preview.headers = headers
                .iter()
                .map(|h| masked(&h.name, &h.value, h.secret))
                .collect();
        }
    }
    preview
}
