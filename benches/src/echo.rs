//! `gatehouse-bench-echo`: the smallest MCP server the benchmark can talk to, so that the server
//! does not dominate the round trip. Newline-delimited JSON-RPC on stdin/stdout, one response
//! per request, flushed per line; notifications and responses are ignored.
//!
//! It answers `initialize` (2025-11-25, `tools` capability), `ping`, `tools/list` (one tool,
//! `echo`) and `tools/call` of `echo`, whose result is `arguments.message` as a text block.
//! Anything else is a JSON-RPC error. It exits when stdin closes.

use std::io::{BufRead, BufWriter, Write};

use serde::Deserialize;
use serde_json::{Value, json};

const PROTOCOL_VERSION: &str = "2025-11-25";

/// The parts of an incoming message the server looks at; the rest is skipped unparsed.
#[derive(Deserialize)]
struct Incoming {
    #[serde(default)]
    id: Option<Value>,
    #[serde(default)]
    method: Option<String>,
    #[serde(default)]
    params: Option<Params>,
}

#[derive(Deserialize)]
struct Params {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    arguments: Option<Arguments>,
}

#[derive(Deserialize)]
struct Arguments {
    #[serde(default)]
    message: Option<Value>,
}

fn main() {
    if let Err(e) = serve() {
        eprintln!("gatehouse-bench-echo: {e}");
        std::process::exit(1);
    }
}

fn serve() -> std::io::Result<()> {
    let stdin = std::io::stdin().lock();
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut lines = stdin.split(b'\n');
    while let Some(line) = lines.next().transpose()? {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let reply = match serde_json::from_slice::<Incoming>(&line) {
            Ok(message) => answer(message),
            Err(e) => Some(error(Value::Null, -32700, &format!("parse error: {e}"))),
        };
        if let Some(reply) = reply {
            serde_json::to_writer(&mut out, &reply)?;
            out.write_all(b"\n")?;
            out.flush()?;
        }
    }
    Ok(())
}

/// The response to one message, or `None` for notifications and responses.
fn answer(message: Incoming) -> Option<Value> {
    let id = message.id?;
    let Some(method) = message.method else {
        return None; // a response to a request of ours; we send none
    };
    let result = match method.as_str() {
        "initialize" => json!({
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "gatehouse-bench-echo", "version": env!("CARGO_PKG_VERSION")},
        }),
        "ping" => json!({}),
        "tools/list" => json!({"tools": [{
            "name": "echo",
            "description": "Returns `message` as text.",
            "inputSchema": {
                "type": "object",
                "properties": {"message": {"type": "string"}},
                "required": ["message"],
            },
        }]}),
        "tools/call" => return Some(call(id, message.params)),
        other => return Some(error(id, -32601, &format!("method not found: {other}"))),
    };
    Some(json!({"jsonrpc": "2.0", "id": id, "result": result}))
}

fn call(id: Value, params: Option<Params>) -> Value {
    let Some(params) = params else {
        return error(id, -32602, "tools/call needs params");
    };
    if params.name.as_deref() != Some("echo") {
        return error(id, -32602, "unknown tool: only `echo` exists");
    }
    let text = params
        .arguments
        .and_then(|a| a.message)
        .unwrap_or(Value::Null);
    let text = match text {
        Value::String(s) => Value::String(s),
        Value::Null => Value::String(String::new()),
        other => Value::String(other.to_string()),
    };
    json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": text}]}})
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}
