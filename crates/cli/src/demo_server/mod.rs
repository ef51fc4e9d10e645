//! `gatehouse demo-server` (hidden): the small MCP server the app offers on its first run, over
//! stdio, needing no network and nothing but this binary. It speaks the handshake era
//! (`initialize`, 2025-11-25 and the revisions before it) and offers the tools, resources, a
//! template with completion, and a prompt of [`catalogue`]. One JSON-RPC message a line; a line
//! longer than [`MAX_LINE`] is answered with a parse error and skipped.

mod catalogue;

use serde_json::{Value, json};
use tokio::io::{
    AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader,
};

/// The longest line read: a request larger than this is refused.
pub const MAX_LINE: u64 = 1024 * 1024;

/// The revisions answered with the one the client asked for; any other gets the newest.
const REVISIONS: [&str; 4] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/// Serves stdin and stdout until stdin closes.
pub async fn run() -> std::io::Result<()> {
    serve(tokio::io::stdin(), tokio::io::stdout()).await
}

/// Serves one client on `input` and `output` until `input` ends.
pub async fn serve(
    input: impl AsyncRead + Unpin,
    mut output: impl AsyncWrite + Unpin,
) -> std::io::Result<()> {
    let mut input = BufReader::new(input);
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = (&mut input)
            .take(MAX_LINE)
            .read_until(b'\n', &mut line)
            .await?;
        if read == 0 {
            return Ok(());
        }
        let reply = if line.last() != Some(&b'\n') && read as u64 == MAX_LINE {
            skip_rest(&mut input).await?;
            Some(error(
                Value::Null,
                -32700,
                "the message is longer than 1 MiB",
            ))
        } else {
            match serde_json::from_slice::<Value>(&line) {
                Ok(message) => answer(&message),
                Err(_) if line.iter().all(u8::is_ascii_whitespace) => None,
                Err(e) => Some(error(Value::Null, -32700, &format!("not JSON: {e}"))),
            }
        };
        if let Some(reply) = reply {
            let mut text = reply.to_string();
            text.push('\n');
            output.write_all(text.as_bytes()).await?;
            output.flush().await?;
        }
    }
}

/// Reads and drops the rest of an overlong line.
async fn skip_rest(input: &mut (impl AsyncBufRead + Unpin)) -> std::io::Result<()> {
    let mut chunk = Vec::new();
    loop {
        chunk.clear();
        let read = (&mut *input)
            .take(MAX_LINE)
            .read_until(b'\n', &mut chunk)
            .await?;
        if read == 0 || chunk.last() == Some(&b'\n') {
            return Ok(());
        }
    }
}

/// The reply to one message: `None` for a notification or a response.
fn answer(message: &Value) -> Option<Value> {
    let method = message.get("method").and_then(Value::as_str)?;
    let id = message.get("id").cloned()?;
    let params = message.get("params").cloned().unwrap_or(Value::Null);
    let outcome = match method {
        "initialize" => Ok(initialize(&params)),
        "ping" => Ok(json!({})),
        "tools/list" => Ok(json!({ "tools": catalogue::tools() })),
        "tools/call" => catalogue::call_tool(&params),
        "resources/list" => Ok(json!({ "resources": catalogue::resources() })),
        "resources/templates/list" => {
            Ok(json!({ "resourceTemplates": catalogue::resource_templates() }))
        }
        "resources/read" => catalogue::read_resource(&params),
        "prompts/list" => Ok(json!({ "prompts": catalogue::prompts() })),
        "prompts/get" => catalogue::get_prompt(&params),
        "completion/complete" => Ok(catalogue::complete(&params)),
        "logging/setLevel" => Ok(json!({})),
        other => Err((-32601, format!("the demo server has no method {other}"))),
    };
    Some(match outcome {
        Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
        Err((code, text)) => error(id, code, &text),
    })
}

fn initialize(params: &Value) -> Value {
    let asked = params.get("protocolVersion").and_then(Value::as_str);
    let revision = asked
        .filter(|asked| REVISIONS.contains(asked))
        .unwrap_or(REVISIONS[0]);
    json!({
        "protocolVersion": revision,
        "capabilities": {
            "tools": {},
            "resources": {},
            "prompts": {},
            "completions": {},
            "logging": {}
        },
        "serverInfo": {
            "name": "gatehouse-demo",
            "title": "Gatehouse demo server",
            "version": env!("CARGO_PKG_VERSION"),
            "icons": [gatehouse_mcp::app_icon()]
        },
        "instructions": "A demo server that ships with Gatehouse: try the echo, add and current_time tools, read demo://readme, fill in demo://greeting/{name}, or get the greet prompt."
    })
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}
