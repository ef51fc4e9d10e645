//! `gatehouse conformance-client <url>`: the client side of the official MCP conformance suite.
//! The suite names the scenario in `MCP_CONFORMANCE_SCENARIO` (and may pass JSON in
//! `MCP_CONFORMANCE_CONTEXT`); each scenario is a short script over the real engine. The whole
//! run stops itself before the suite's 30-second limit.

use std::sync::Arc;
use std::time::Duration;

use gatehouse_host::HostError;
use gatehouse_mcp::error::RpcError;
use gatehouse_mcp::features::elicitation::schema_defaults;
use gatehouse_mcp::peer::Handler;
use gatehouse_mcp::transport::BoxFuture;
use gatehouse_mcp::{CallOptions, Client, ClientOptions, HttpConfig, HttpMode};
use serde_json::{Map, Value, json};

/// The run's own deadline, inside the suite's 30 s.
const DEADLINE: Duration = Duration::from_secs(25);

pub async fn run(url: &str) -> Result<(), HostError> {
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    let url = url::Url::parse(url)
        .map_err(|e| HostError::Validation(format!("invalid URL `{url}`: {e}")))?;
    match tokio::time::timeout(DEADLINE, scenario_run(&scenario, url)).await {
        Ok(result) => result,
        Err(_) => Err(HostError::Unsupported(format!(
            "scenario `{scenario}` did not finish within {DEADLINE:?}"
        ))),
    }
}

async fn scenario_run(scenario: &str, url: url::Url) -> Result<(), HostError> {
    let client = connect(url, scenario).await?;
    let outcome = match scenario {
        // The mock declares no capabilities, so there are no tools to ask for.
        "initialize" => list_declared_tools(&client).await,
        "tools_call" => call_listed(&client, "add_numbers", None).await,
        "elicitation-sep1034-client-defaults" => {
            call_listed(&client, "test_client_elicitation_defaults", None).await
        }
        "sse-retry" => call_listed(&client, "test_reconnection", None).await,
        "json-schema-2020-12-preservation" => echo_schema(&client).await,
        // Requests after the refused first one must carry the retried version; the mock
        // declares no capabilities, so the retried `server/discover` is the one to make.
        "request-metadata" => list_declared_tools(&client).await,
        // Listing is the whole exercise: the client must not fetch the schema's remote `$ref`.
        "json-schema-ref-no-deref" => client.list_tools().await.map(drop).map_err(HostError::from),
        "http-standard-headers" | "sep-2322-client-request-state" | "http-invalid-tool-headers" => {
            exercise_named_methods(&client).await
        }
        "http-custom-headers" => context_tool_calls(&client).await,
        // Listing must not fetch any skill file.
        "sep-2640-client-no-prefetch" => client
            .list_skills()
            .await
            .map(drop)
            .map_err(HostError::from),
        "sep-2640-client-verify-digest"
        | "sep-2640-client-verify-size"
        | "sep-2640-client-verify-frontmatter" => load_every_skill(&client).await,
        // Authorization happens on the way (the transport answers each 401 and 403); two or more
        // authorized requests exercise step-up and authorization server migration.
        auth if auth.starts_with("auth/") => call_every_tool(&client).await,
        other => Err(HostError::Unsupported(format!(
            "unknown conformance scenario `{other}`"
        ))),
    };
    let closed = client.close().await;
    outcome?;
    closed.map_err(HostError::from)
}

async fn connect(url: url::Url, scenario: &str) -> Result<Client, HostError> {
    let mut options = ClientOptions::default();
    options
        .capabilities
        .insert("elicitation".into(), json!({ "form": {} }));
    let mut config = HttpConfig::new(url);
    if scenario.starts_with("auth/") {
        super::conformance_auth::prepare(scenario, &mut config, &mut options).await?;
    }
    Ok(Client::connect_http(&config, HttpMode::Auto, options, Arc::new(AcceptDefaults)).await?)
}

/// Lists the tools if the server declares them; one that does not is not asked (2025-11-25
/// basic/lifecycle, "Operation": only negotiated capabilities are used).
async fn list_declared_tools(client: &Client) -> Result<(), HostError> {
    if client.server_declares("tools") {
        client.list_tools().await?;
    }
    Ok(())
}

/// Lists the tools and calls `name` with arguments filled from its input schema.
async fn call_listed(
    client: &Client,
    name: &str,
    arguments: Option<Value>,
) -> Result<(), HostError> {
    let tools = client.list_tools().await?;
    let tool = tools
        .items
        .iter()
        .find(|t| t.name == name)
        .ok_or_else(|| HostError::Unsupported(format!("the server does not list `{name}`")))?;
    let arguments = arguments.unwrap_or_else(|| sample_arguments(&tool.input_schema));
    let options = CallOptions {
        timeout: Duration::from_secs(20),
        ..CallOptions::default()
    };
    let result = client.call_tool(name, Some(arguments), options).await?;
    if result.is_error {
        return Err(HostError::Unsupported(format!(
            "`{name}` returned an error: {:?}",
            result.content
        )));
    }
    Ok(())
}

/// Lists the tools and calls each one with arguments filled from its input schema.
async fn call_every_tool(client: &Client) -> Result<(), HostError> {
    for tool in client.list_tools().await?.items {
        let arguments = sample_arguments(&tool.input_schema);
        client
            .call_tool(&tool.name, Some(arguments), CallOptions::default())
            .await?;
    }
    Ok(())
}

/// Calls every tool, reads every resource and gets every prompt, so that each method whose
/// request names its target is sent once (SEP-2243 standard headers).
async fn exercise_named_methods(client: &Client) -> Result<(), HostError> {
    for tool in client.list_tools().await?.items {
        let arguments = sample_arguments(&tool.input_schema);
        client
            .call_tool(&tool.name, Some(arguments), CallOptions::default())
            .await?;
    }
    if client.server_declares("resources") {
        for resource in client.list_resources().await?.items {
            client.read_resource(&resource.uri).await?;
        }
    }
    if client.server_declares("prompts") {
        for prompt in client.list_prompts().await?.items {
            client
                .get_prompt(&prompt.name, &std::collections::BTreeMap::new())
                .await?;
        }
    }
    Ok(())
}

/// Makes the tool calls the suite lists in `MCP_CONFORMANCE_CONTEXT` (`toolCalls`), with
/// exactly their arguments, after listing the tools to learn their header annotations.
async fn context_tool_calls(client: &Client) -> Result<(), HostError> {
    let context: Value = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|c| serde_json::from_str(&c).ok())
        .ok_or_else(|| {
            HostError::Validation("MCP_CONFORMANCE_CONTEXT is missing or not JSON".into())
        })?;
    client.list_tools().await?;
    for call in context
        .get("toolCalls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let name = call.get("name").and_then(Value::as_str).unwrap_or_default();
        client
            .call_tool(name, call.get("arguments").cloned(), CallOptions::default())
            .await?;
    }
    Ok(())
}

/// Loads each skill and then reads its other files; a skill that fails verification is refused
/// before any of its other files is read.
async fn load_every_skill(client: &Client) -> Result<(), HostError> {
    for skill in client.list_skills().await? {
        let loaded = client.load_skill(&skill).await?;
        for file in loaded.skill.resources.iter().filter(|f| f.uri != skill.uri) {
            client.read_skill_file(file).await?;
        }
    }
    Ok(())
}

/// Echoes a 2020-12 input schema back exactly as listed (SEP-1613, SEP-2106).
async fn echo_schema(client: &Client) -> Result<(), HostError> {
    let tools = client.list_tools().await?;
    let schema = tools
        .items
        .iter()
        .find(|t| t.name == "json_schema_2020_12_tool")
        .map(|t| t.input_schema.clone())
        .ok_or_else(|| {
            HostError::Unsupported("the server does not list json_schema_2020_12_tool".into())
        })?;
    call_listed(
        client,
        "json_schema_echo",
        Some(json!({ "schema": schema })),
    )
    .await
}

/// Arguments satisfying a schema's required properties with plain sample values.
fn sample_arguments(schema: &Value) -> Value {
    let properties = schema.get("properties").and_then(Value::as_object);
    let required = schema.get("required").and_then(Value::as_array);
    let mut arguments = Map::new();
    for name in required.into_iter().flatten().filter_map(Value::as_str) {
        let kind = properties
            .and_then(|p| p.get(name))
            .and_then(|p| p.get("type"))
            .and_then(Value::as_str);
        let value = match kind {
            Some("number") => json!(1.5),
            Some("integer") => json!(1),
            Some("boolean") => json!(true),
            Some("array") => json!([]),
            Some("object") => json!({}),
            _ => json!("test"),
        };
        arguments.insert(name.to_owned(), value);
    }
    Value::Object(arguments)
}

/// Accepts every form elicitation with the schema's defaults, as a client without a user does.
struct AcceptDefaults;

impl Handler for AcceptDefaults {
    fn on_request(
        &self,
        method: String,
        params: Option<Value>,
    ) -> BoxFuture<'static, Result<Value, RpcError>> {
        Box::pin(async move {
            match method.as_str() {
                "elicitation/create" => {
                    let schema = params
                        .as_ref()
                        .and_then(|p| p.get("requestedSchema"))
                        .cloned()
                        .unwrap_or_default();
                    Ok(json!({ "action": "accept", "content": schema_defaults(&schema) }))
                }
                _ => Err(RpcError {
                    code: -32601,
                    message: format!("method not found: {method}"),
                    data: None,
                }),
            }
        })
    }
}
