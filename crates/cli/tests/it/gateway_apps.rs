//! MCP Apps through the gateway: an agent that renders MCP Apps (ext-apps) sees a tool's
//! `_meta.ui.resourceUri` as the server gave it, and reads the `ui://` view through Gatehouse,
//! with its MIME type (`text/html;profile=mcp-app`), its HTML and its `_meta`, through the gate
//! (an audited read). The server is the ext-apps system-monitor example, the agent the official
//! TypeScript SDK v1 client.

use crate::support::gateway::{StopsTheEngine, fixtures, run_client};
use crate::support::{add_stdio, ok, ok_json};
use std::path::Path;

use serde_json::Value;

const VIEW: &str = "ui://system-monitor/mcp-app.html";

#[test]
fn an_agent_gets_a_tools_ui_meta_and_reads_its_view_through_the_gate() {
    let data = tempfile::tempdir().expect("tempdir");
    let data = data.path();
    let entry = fixtures()
        .join("node_modules/@modelcontextprotocol/server-system-monitor/dist/index.js")
        .display()
        .to_string();
    add_stdio(data, "mon", "node", &[&entry, "--stdio"]);
    ok(
        data,
        &["policy", "set", "mon", "--source", "gateway", "allow"],
    );
    let _engine = StopsTheEngine(data);

    let lines = run_client(
        data,
        Path::new("node"),
        "ts_sdk_v1_client.mjs",
        "apps-agent",
        &[],
        &["--read", VIEW],
    );
    let step = |name: &str| -> Vec<&Value> {
        lines
            .iter()
            .filter(|l| l["step"] == name)
            .map(|l| &l["value"])
            .collect()
    };
    let tools = step("tools")[0].as_array().expect("tools").clone();
    let with_view: Vec<&Value> = tools
        .iter()
        .filter(|t| t["_meta"]["ui"]["resourceUri"] == VIEW)
        .collect();
    assert!(
        !with_view.is_empty(),
        "a tool names its view in _meta.ui as the server gave it: {tools:?}"
    );
    assert!(
        with_view
            .iter()
            .all(|t| t["name"].as_str().is_some_and(|n| n.starts_with("mon__"))),
        "{with_view:?}"
    );

    let read = step("read");
    let contents = &read[0]["result"]["contents"][0];
    assert_eq!(contents["uri"], VIEW, "{read:?}");
    assert_eq!(
        contents["mimeType"], "text/html;profile=mcp-app",
        "{contents}"
    );
    assert!(
        contents["text"]
            .as_str()
            .is_some_and(|html| html.contains("<html") || html.contains("<!DOCTYPE")),
        "the view's HTML: {contents}"
    );

    let audit = ok_json(data, &["audit", "list", "--client", "apps-agent", "--json"]);
    let rows = audit["rows"].as_array().expect("rows");
    let asked = rows
        .iter()
        .find(|r| r["kind"] == "request_received" && r["detail"]["uri"] == VIEW)
        .unwrap_or_else(|| panic!("the read is on record: {rows:?}"));
    assert_eq!(asked["method"], "resources/read");
    assert!(
        rows.iter().any(|r| r["kind"] == "decision"
            && r["correlation"] == asked["correlation"]
            && r["decision"] == "allow"),
        "the read passed the gate: {rows:?}"
    );
}
