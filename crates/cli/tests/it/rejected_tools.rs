//! A tool whose `x-mcp-header` annotation breaks the rules is left out of the list, and the
//! person is told which tool and why (2026-07-28 transports/streamable-http: clients SHOULD log
//! a warning naming the tool and the reason).

use crate::support;

use crate::support::{add_scripted, ok, ok_json, stderr};

/// A legacy server with one good tool and one whose annotation sits under `items`.
const SERVER: &str = r#"
BAD = {"type": "object", "properties": {"tags": {"type": "array",
       "items": {"type": "string", "x-mcp-header": "Tag"}}}}
def answer(method, params):
    if method == "tools/list":
        return {"tools": [tool("good"), tool("tagged", inputSchema=BAD)]}
serve({"tools": {}}, answer, name="annotated")
"#;

#[test]
fn a_rejected_tool_is_named_with_the_reason() {
    let dir = tempfile::tempdir().expect("temp dir");
    add_scripted(dir.path(), "annotated", SERVER);
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
