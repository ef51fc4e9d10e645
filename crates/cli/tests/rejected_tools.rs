//! A tool whose `x-mcp-header` annotation breaks the rules is left out of the list, and the
//! person is told which tool and why (2026-07-28 transports/streamable-http: clients SHOULD log
//! a warning naming the tool and the reason).

mod support;

use support::{add_stdio, ok, ok_json, stderr};

/// A legacy server with one good tool and one whose annotation sits under `items`.
const SERVER: &str = r#"
import json, sys
def send(obj): print(json.dumps(obj), flush=True)
BAD = {"type": "object", "properties": {"tags": {"type": "array",
       "items": {"type": "string", "x-mcp-header": "Tag"}}}}
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg: continue
    method = msg.get("method")
    if method == "initialize":
        result = {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                  "serverInfo": {"name": "annotated", "version": "1"}}
    elif method == "tools/list":
        result = {"tools": [{"name": "good", "inputSchema": {"type": "object"}},
                            {"name": "tagged", "inputSchema": BAD}]}
    else:
        send({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "unknown"}})
        continue
    send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
"#;

#[test]
fn a_rejected_tool_is_named_with_the_reason() {
    let dir = tempfile::tempdir().expect("temp dir");
    add_stdio(dir.path(), "annotated", "python3", &["-u", "-c", SERVER]);
    let output = support::gatehouse(dir.path(), &["tools", "annotated"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let warned = stderr(&output);
    assert!(
        warned.contains("leaving out tool `tagged`") && warned.contains("/properties/tags/items"),
        "the warning names the tool and where its annotation is: {warned}"
    );
    assert!(ok(dir.path(), &["tools", "annotated"]).contains("good"));
    let listed = ok_json(dir.path(), &["tools", "annotated", "--json"]);
    let names: Vec<&str> = listed["tools"]
        .as_array()
        .map(|t| t.iter().filter_map(|t| t["name"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(names, ["good"], "the invalid tool is excluded: {listed}");
}
