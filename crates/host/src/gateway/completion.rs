//! The gateway's `completion/complete`: the prompt (by its exposed name) or the resource template
//! (by its URI template) routed back to its server, and asked through the gate with source
//! `gateway`.

use std::collections::BTreeMap;

use gatehouse_mcp::CompletionRef;
use serde_json::{Value, json};

use super::profiles::Served;
use super::{prompts, resources, servers};
use crate::error::{HostError, Result};
use crate::host::Host;
use crate::oversight::gate::Source;

pub async fn complete(host: &Host, client: &str, served: &Served, params: &Value) -> Result<Value> {
    let text = |pointer: &str| params.pointer(pointer).and_then(Value::as_str);
    let (Some(kind), Some(argument), Some(value)) = (
        text("/ref/type"),
        text("/argument/name"),
        text("/argument/value"),
    ) else {
        return Err(HostError::Validation(
            "`ref.type`, `argument.name` and `argument.value` are needed".to_owned(),
        ));
    };
    let context: BTreeMap<String, String> = params
        .pointer("/context/arguments")
        .and_then(|a| serde_json::from_value(a.clone()).ok())
        .unwrap_or_default();
    let (connection, reference) = match (kind, text("/ref/name"), text("/ref/uri")) {
        ("ref/prompt", Some(name), _) => {
            let (server, prompt) = prompts::route(host, client, served, name).await?;
            prompts::shown(host, served, &server, "completion/complete", name).await?;
            let connection = servers::session(host, &server, client).await?;
            (connection, CompletionRef::Prompt { name: prompt })
        }
        ("ref/resource", _, Some(uri)) => {
            let connection =
                resources::shown_owner(host, client, served, "completion/complete", uri).await?;
            let reference = CompletionRef::ResourceTemplate {
                uri: uri.to_owned(),
            };
            (connection, reference)
        }
        _ => {
            return Err(HostError::Validation(format!(
                "`ref` must be a ref/prompt with a name or a ref/resource with a uri, not `{kind}`"
            )));
        }
    };
    let completion = connection
        .complete(&reference, argument, value, Some(&context), Source::Gateway)
        .await?;
    Ok(json!({ "completion": completion }))
}
