//! Server text never reaches the terminal as control sequences: a script server whose tool
//! description, result and error carry an escape sequence, a carriage return and a
//! bidirectional override is listed and called, in human and in JSON output.

use crate::support::{add_scripted, exits, ok, ok_json, stderr};

/// A legacy server with one tool, `shout`, whose every text carries control characters.
const HOSTILE: &str = r#"
NASTY = "red\u001b[31m title\u001b]0;pwned\u0007 back\rover \u202eevil"
def answer(method, params):
    if method == "tools/list":
        return {"tools": [tool("shout", description=NASTY), tool("fail")]}
    if method == "tools/call" and params["name"] == "shout":
        return {"content": [{"type": "text", "text": NASTY}]}
    if method == "tools/call":
        raise Refuse(-32603, NASTY)
serve({"tools": {}}, answer, name="hostile")
"#;

const NASTY: &str = "red\u{1b}[31m title\u{1b}]0;pwned\u{7} back\rover \u{202e}evil";

fn assert_inert(what: &str, text: &str) {
    for c in ['\u{1b}', '\u{7}', '\r', '\u{202e}'] {
        assert!(
            !text.contains(c),
            "{what}: {c:?} from the server must not reach the terminal: {text:?}"
        );
    }
}

#[test]
fn server_text_is_shown_not_obeyed() {
    let dir = tempfile::tempdir().expect("temp dir");
    add_scripted(dir.path(), "hostile", HOSTILE);

    let tools = ok(dir.path(), &["tools", "hostile"]);
    assert_inert("tools", &tools);
    assert!(
        tools.contains(r"red\u{1b}[31m"),
        "the escape is shown, so the person sees what the server sent: {tools}"
    );
    let called = ok(dir.path(), &["call", "hostile", "shout"]);
    assert_inert("call", &called);
    assert!(called.contains(r"back\u{d}over \u{202e}evil"), "{called}");
    let failed = exits(dir.path(), &["call", "hostile", "fail"], 1);
    assert_inert("error", &stderr(&failed));

    let json = ok(dir.path(), &["call", "hostile", "shout", "--json"]);
    assert_inert("call --json", &json);
    let parsed: serde_json::Value = serde_json::from_str(&json).expect("still JSON");
    let text = parsed.to_string();
    assert!(
        text.contains("evil") && parsed["content"][0]["text"] == NASTY,
        "JSON escapes keep the exact text for programs: {parsed}"
    );
    let listed = ok_json(dir.path(), &["tools", "hostile", "--json"]);
    assert_eq!(listed["tools"][0]["description"], NASTY);
}
