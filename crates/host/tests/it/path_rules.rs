//! Path rules cannot be escaped by an MCP App's calls (source `app`, the host's app request
//! path): against the real server-filesystem, allowed to write anywhere in a temporary tree,
//! with "allow `write_file` when `/path` is in projects/**" and "deny it when `/path` is
//! outside projects/**", a path that climbs out with `..`, `//` and `./`, a `file:` URI with
//! `%2e%2e`, and a path through a symbolic link inside projects that points out of it are each
//! denied by the deny rule, and with the allow rule alone they are not allowed (nobody can be
//! asked here, so they are refused); the file the server would write is never there. A path
//! inside projects is written, and the person's own call of an escaping path shows the server
//! would have written it.

use crate::support;

use std::path::Path;

use gatehouse_host::policy::{ArgumentMatch, Effect, Pattern, Rule};
use gatehouse_host::{CallOutcome, Host, HostError, HostOptions, ServerStatus, Source, ToolCall};
use gatehouse_mcp::CallOptions;
use serde_json::json;

fn filesystem(root: &Path) -> gatehouse_host::ServerInput {
    let entry = support::fixtures()
        .join("node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
    assert!(
        entry.is_file(),
        "server-filesystem is missing at {}: run scripts/install-test-deps.sh",
        entry.display()
    );
    support::stdio(
        "fs",
        "node",
        vec![entry.display().to_string(), root.display().to_string()],
    )
}

/// A rule on `write_file`'s `/path` of the server `id`.
fn path_rule(id: &str, glob: String, outside: bool, effect: Effect) -> Rule {
    Rule {
        id: String::new(),
        server: Some(id.to_owned()),
        tool: Some("write_file".into()),
        argument: Some(ArgumentMatch {
            pointer: "/path".into(),
            pattern: Pattern::Glob(glob),
            outside,
        }),
        effect,
        definition_hash: None,
        source: None,
        client: None,
    }
}

/// The app's `write_file` of `path`, on the host's app request path (source `app`).
async fn app_write(host: &Host, id: &str, path: &str) -> gatehouse_host::Result<CallOutcome> {
    let arguments = json!({ "path": path, "content": "ssh-ed25519 AAAA intruder" });
    host.app_call_tool(
        id,
        "view 1",
        "write_file",
        Some(arguments),
        CallOptions::default(),
        std::future::pending(),
    )
    .await
}

#[tokio::test]
async fn an_apps_call_cannot_escape_a_path_rule() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = std::fs::canonicalize(dir.path())
        .expect("canonical")
        .join("tree");
    std::fs::create_dir_all(root.join("projects")).expect("projects");
    std::fs::create_dir_all(root.join("secret")).expect("secret");
    std::os::unix::fs::symlink("../secret", root.join("projects/out")).expect("link");
    let target = root.join("secret/authorized_keys");
    let root_text = root.display().to_string();

    let host = Host::open(HostOptions {
        data_dir: Some(dir.path().join("data")),
        live_sessions: true,
        render_apps: true,
        ..Default::default()
    })
    .await
    .expect("open");
    let id = host
        .add_server(filesystem(&root))
        .await
        .expect("add")
        .config
        .id;
    let status = support::settled(&host, "fs").await;
    assert!(
        matches!(status, ServerStatus::Connected { .. }),
        "{status:?}"
    );

    let projects = format!("{root_text}/projects/**");
    host.add_rule(path_rule(&id, projects.clone(), false, Effect::Allow))
        .await
        .expect("allow rule");
    let deny = host
        .add_rule(path_rule(&id, projects, true, Effect::Deny))
        .await
        .expect("deny rule");

    let escaping = [
        format!("{root_text}/projects/../secret/authorized_keys"),
        format!("{root_text}/projects//./../secret/authorized_keys"),
        format!("file://{root_text}/projects/%2e%2e/secret/authorized_keys"),
        format!("{root_text}/projects/out/authorized_keys"),
    ];
    for path in &escaping {
        match app_write(&host, &id, path).await {
            Err(HostError::Denied { rule, .. }) => {
                assert_eq!(rule.as_deref(), Some(deny.id.as_str()), "{path}");
            }
            other => panic!("{path}: the app's call must be denied, got {other:?}"),
        }
        assert!(!target.exists(), "{path}: nothing reached the server");
    }

    let inside = app_write(&host, &id, &format!("{root_text}/projects/notes.txt")).await;
    assert!(
        matches!(inside, Ok(CallOutcome::Done(ref r)) if !r.is_error),
        "{inside:?}"
    );
    assert!(
        root.join("projects/notes.txt").is_file(),
        "inside is written"
    );

    // The allow rule alone is not satisfied by an escaping path: it asks, and nobody can.
    host.remove_rule(&deny.id).await.expect("remove");
    for path in &escaping {
        match app_write(&host, &id, path).await {
            Err(HostError::Denied { reason, rule }) => {
                assert_eq!(rule, None, "{path}: no rule allowed it");
                assert!(reason.contains("nobody can be asked"), "{path}: {reason}");
            }
            other => panic!("{path}: the allow rule must not let it through, got {other:?}"),
        }
        assert!(!target.exists(), "{path}: nothing reached the server");
    }

    // The person's own call goes through: the server would have written there.
    let call = ToolCall {
        tool: "write_file".into(),
        arguments: Some(json!({ "path": &escaping[0], "content": "x" })),
        source: Source::User,
        caller: None,
    };
    let own = host
        .call_tool(&id, call, CallOptions::default(), std::future::pending())
        .await;
    assert!(
        matches!(own, Ok(CallOutcome::Done(ref r)) if !r.is_error),
        "{own:?}"
    );
    assert!(target.is_file());
    host.shutdown().await;
}
