//! `gatehouse app-sites`: the global lists of outside sites MCP App views may reach. A domain
//! goes on the allow or the block list (a URL gives its host; moving it between lists keeps
//! one entry), `list` shows both (and JSON), `remove` takes it off, a malformed domain or one on
//! neither list fails with one line and exit 1, and every change is on record in the audit log.

use crate::support::{exits, ok, ok_json, stderr};

#[test]
fn domains_go_on_and_off_the_app_site_lists() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    assert!(
        ok(data, &["app-sites", "list"]).contains("no app site lists"),
        "an empty start says what it means"
    );

    let said = ok(
        data,
        &["app-sites", "block", "https://Tracker.example.net/pixel"],
    );
    assert!(said.contains("may not reach tracker.example.net"), "{said}");
    ok(data, &["app-sites", "allow", "example.com"]);
    ok(data, &["app-sites", "allow", "tracker.example.net"]);
    let lists = ok_json(data, &["app-sites", "list", "--json"]);
    assert_eq!(
        lists,
        serde_json::json!({ "allow": ["example.com", "tracker.example.net"], "block": [] })
    );
    let table = ok(data, &["app-sites", "list"]);
    assert!(
        table
            .lines()
            .any(|l| l.starts_with("example.com") && l.ends_with("allow")),
        "{table}"
    );

    ok(data, &["app-sites", "remove", "tracker.example.net"]);
    assert_eq!(
        ok_json(data, &["app-sites", "list", "--json"])["allow"],
        serde_json::json!(["example.com"])
    );

    let bad = exits(data, &["app-sites", "block", "*.example.com"], 1);
    let line = stderr(&bad);
    assert!(
        line.contains("not a domain") && line.lines().count() == 1,
        "{line}"
    );
    let absent = exits(data, &["app-sites", "remove", "nowhere.example"], 1);
    assert!(stderr(&absent).contains("neither"), "{}", stderr(&absent));

    let audit = ok_json(data, &["audit", "list", "--json"]);
    let changes: Vec<&str> = audit["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter_map(|r| r["detail"]["change"].as_str())
        .filter(|c| c.starts_with("app site"))
        .collect();
    assert_eq!(
        changes,
        [
            "app site removed",
            "app site allowed",
            "app site allowed",
            "app site blocked"
        ],
        "newest first"
    );
}
