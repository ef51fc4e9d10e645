//! `gatehouse settings`: every setting printed with its unit, one set and read back (text and
//! JSON), retention turned off again, and a value out of range or an unknown key refused with
//! exit status 1 naming what is allowed, nothing stored.

use crate::support::{exits, ok, ok_json, stderr};

#[test]
fn settings_are_set_read_back_and_refused_out_of_range() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    let all = ok(data, &["settings", "get"]);
    assert!(all.contains("approval-timeout       300 seconds"), "{all}");
    assert!(all.contains("audit-retention        off"), "{all}");

    ok(data, &["settings", "set", "approval-timeout", "45"]);
    assert_eq!(
        ok(data, &["settings", "get", "approval-timeout"]).trim(),
        "45"
    );
    let json = ok_json(
        data,
        &["settings", "set", "audit-retention", "30", "--json"],
    );
    assert_eq!(json["approvalTimeoutSecs"], 45);
    assert_eq!(json["auditRetentionDays"], 30);
    let json = ok_json(
        data,
        &["settings", "set", "audit-retention", "off", "--json"],
    );
    assert!(json["auditRetentionDays"].is_null(), "{json}");

    let refused = exits(data, &["settings", "set", "health-check-interval", "0"], 1);
    assert!(
        stderr(&refused).contains("health-check-interval must be 1 to 3600 seconds, not 0"),
        "{}",
        stderr(&refused)
    );
    let unknown = exits(data, &["settings", "set", "colour", "blue"], 1);
    assert!(
        stderr(&unknown).contains("no setting `colour`"),
        "{}",
        stderr(&unknown)
    );
    let json = ok_json(data, &["settings", "get", "--json"]);
    assert_eq!(json["healthEverySecs"], 30, "nothing stored: {json}");

    // A server added without --term-grace gets the default stop graces.
    ok(data, &["settings", "set", "stop-term-grace", "750"]);
    ok(
        data,
        &[
            "server",
            "add",
            "s",
            "--command",
            "true",
            "--stop-grace",
            "1",
        ],
    );
    let servers = ok_json(data, &["server", "list", "--json"]);
    let stop = &servers[0]["spec"]["stop"];
    assert_eq!(
        (stop["stdinMs"].as_u64(), stop["termMs"].as_u64()),
        (Some(1000), Some(750)),
        "{servers}"
    );
}
