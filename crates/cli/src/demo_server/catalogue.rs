//! What the demo server offers and how it answers: the tools `echo`, `add` and
//! `current_time`; the resources `demo://readme` (Markdown) and `demo://logo` (a PNG); the
//! template `demo://greeting/{name}`, whose `name` completes from a short list; and the prompt
//! `greet` with a `name` argument (completed the same way) and an optional `style`.

use serde_json::{Value, json};

/// The names `name` completes from.
const NAMES: [&str; 6] = ["Ada", "Alan", "Barbara", "Grace", "Linus", "Margaret"];

/// A 1×1 PNG.
const LOGO_PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

const README: &str = "# The Gatehouse demo server\n\nIt ships with Gatehouse and needs no network. Every request to it goes through Gatehouse's gate, so each call, read and prompt is on the Audit page.\n\n- Tools: `echo`, `add`, `current_time`\n- Resources: this file, `demo://logo`, and `demo://greeting/{name}`\n- Prompt: `greet`\n";

type Outcome = Result<Value, (i64, String)>;

fn invalid(text: impl Into<String>) -> (i64, String) {
    (-32602, text.into())
}

pub fn tools() -> Value {
    json!([
        {
            "name": "echo",
            "title": "Echo",
            "description": "Says back the message it is given.",
            "inputSchema": {
                "type": "object",
                "properties": { "message": { "type": "string", "description": "What to say back" } },
                "required": ["message"]
            },
            "annotations": { "readOnlyHint": true, "openWorldHint": false }
        },
        {
            "name": "add",
            "title": "Add two numbers",
            "description": "Adds a and b.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "a": { "type": "number", "description": "The first number" },
                    "b": { "type": "number", "description": "The second number" }
                },
                "required": ["a", "b"]
            },
            "outputSchema": {
                "type": "object",
                "properties": { "sum": { "type": "number" } },
                "required": ["sum"]
            },
            "annotations": { "readOnlyHint": true, "openWorldHint": false }
        },
        {
            "name": "current_time",
            "title": "Current time",
            "description": "The time now, in UTC (RFC 3339).",
            "inputSchema": { "type": "object", "properties": {} },
            "annotations": { "readOnlyHint": true, "openWorldHint": false }
        }
    ])
}

fn text_result(text: &str) -> Value {
    json!({ "content": [{ "type": "text", "text": text }] })
}

pub fn call_tool(params: &Value) -> Outcome {
    let name = params.get("name").and_then(Value::as_str).unwrap_or("");
    let arguments = params.get("arguments").cloned().unwrap_or(json!({}));
    match name {
        "echo" => match arguments.get("message").and_then(Value::as_str) {
            Some(message) => Ok(text_result(message)),
            None => Ok(tool_error("echo needs a `message` (text)")),
        },
        "add" => {
            let number = |key: &str| arguments.get(key).and_then(Value::as_f64);
            match (number("a"), number("b")) {
                (Some(a), Some(b)) => {
                    let sum = a + b;
                    let mut result = text_result(&format!("{a} + {b} = {sum}"));
                    result["structuredContent"] = json!({ "sum": sum });
                    Ok(result)
                }
                _ => Ok(tool_error("add needs two numbers, `a` and `b`")),
            }
        }
        "current_time" => Ok(text_result(&gatehouse_host::control::lock::rfc3339_now())),
        other => Err(invalid(format!("the demo server has no tool `{other}`"))),
    }
}

fn tool_error(text: &str) -> Value {
    json!({ "content": [{ "type": "text", "text": text }], "isError": true })
}

pub fn resources() -> Value {
    json!([
        {
            "uri": "demo://readme",
            "name": "readme",
            "title": "About the demo server",
            "mimeType": "text/markdown"
        },
        {
            "uri": "demo://logo",
            "name": "logo",
            "title": "A one-pixel logo",
            "mimeType": "image/png"
        }
    ])
}

pub fn resource_templates() -> Value {
    json!([{
        "uriTemplate": "demo://greeting/{name}",
        "name": "greeting",
        "title": "A greeting for someone",
        "description": "A line of text greeting `name`; the name completes as you type.",
        "mimeType": "text/plain"
    }])
}

pub fn read_resource(params: &Value) -> Outcome {
    let uri = params.get("uri").and_then(Value::as_str).unwrap_or("");
    let contents = match uri {
        "demo://readme" => json!({ "uri": uri, "mimeType": "text/markdown", "text": README }),
        "demo://logo" => json!({ "uri": uri, "mimeType": "image/png", "blob": LOGO_PNG }),
        _ => match uri.strip_prefix("demo://greeting/") {
            Some(name) if !name.is_empty() => json!({
                "uri": uri,
                "mimeType": "text/plain",
                "text": format!("Hello, {name}! This greeting came from the demo server.")
            }),
            _ => return Err((-32002, format!("the demo server has no resource {uri}"))),
        },
    };
    Ok(json!({ "contents": [contents] }))
}

pub fn prompts() -> Value {
    json!([{
        "name": "greet",
        "title": "Greet someone",
        "description": "Asks the model to greet someone, in a style.",
        "arguments": [
            { "name": "name", "description": "Who to greet", "required": true },
            { "name": "style", "description": "How: friendly, formal or pirate", "required": false }
        ]
    }])
}

pub fn get_prompt(params: &Value) -> Outcome {
    if params.get("name").and_then(Value::as_str) != Some("greet") {
        return Err(invalid("the demo server's only prompt is `greet`"));
    }
    let arguments = params.get("arguments");
    let argument = |key: &str| arguments.and_then(|a| a.get(key)).and_then(Value::as_str);
    let Some(name) = argument("name").filter(|n| !n.trim().is_empty()) else {
        return Err(invalid("greet needs the argument `name`"));
    };
    let style = argument("style").unwrap_or("friendly");
    Ok(json!({
        "description": format!("A {style} greeting for {name}"),
        "messages": [
            {
                "role": "user",
                "content": { "type": "text", "text": format!("Please greet {name} in a {style} way.") }
            },
            {
                "role": "user",
                "content": {
                    "type": "resource",
                    "resource": {
                        "uri": format!("demo://greeting/{name}"),
                        "mimeType": "text/plain",
                        "text": format!("Hello, {name}! This greeting came from the demo server.")
                    }
                }
            }
        ]
    }))
}

/// `completion/complete` for the template's `name` and the prompt's `name` and `style`.
pub fn complete(params: &Value) -> Value {
    let argument = params.get("argument");
    let field = |key: &str| {
        argument
            .and_then(|a| a.get(key))
            .and_then(Value::as_str)
            .unwrap_or("")
    };
    let prefix = field("value").to_lowercase();
    let choices: &[&str] = match field("name") {
        "name" => &NAMES,
        "style" => &["friendly", "formal", "pirate"],
        _ => &[],
    };
    let values: Vec<&str> = choices
        .iter()
        .copied()
        .filter(|c| c.to_lowercase().starts_with(&prefix))
        .collect();
    json!({ "completion": { "values": values, "total": values.len(), "hasMore": false } })
}
