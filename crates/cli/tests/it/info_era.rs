//! `gatehouse info` says why the era was chosen: found by probing on the first connection, and
//! remembered (with when it was found) on the next ones, never "requested" when nobody asked.

use crate::support::{TOOLS_ONLY, add_scripted, ok, ok_json};

#[test]
fn info_says_the_era_was_remembered_and_when() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    add_scripted(data, "bare", TOOLS_ONLY);
    let first = ok(data, &["info", "bare"]);
    assert!(
        first.contains("chosen because: server/discover failed"),
        "the first connection probes: {first}"
    );
    let second = ok(data, &["info", "bare"]);
    let reason = second
        .lines()
        .find(|l| l.starts_with("chosen because:"))
        .unwrap_or_default()
        .to_owned();
    assert!(
        !reason.contains("requested"),
        "nobody requested an era: {reason}"
    );
    assert!(
        reason.contains("remembered from a connection on 20"),
        "the era was remembered from the first connection, which has a date: {reason}"
    );
    let json = ok_json(data, &["info", "bare", "--json"]);
    assert!(
        json["eraReason"]
            .as_str()
            .is_some_and(|r| r.starts_with("remembered")),
        "{json}"
    );
}
