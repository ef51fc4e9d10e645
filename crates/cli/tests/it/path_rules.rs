//! Path rules cannot be escaped through the CLI: the headline rule of docs/oversight.md, deny
//! `write_file` when `/path` is outside `~/projects/**`, made with `gatehouse policy set`, stops
//! `gatehouse call` of the real server-filesystem for a path that climbs out with `..`, one
//! written from `~`, and one that leaves through a symbolic link inside `~/projects`: each
//! exits with status 4 naming the rule, and the file the server would have written (it may
//! write anywhere in the home folder it was given) is not there. A path inside `~/projects`
//! is written; and without the rule the same escaping call does reach the server.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::support::{command, stderr};

/// `gatehouse ARGS` on `data` with `home` as the home directory.
fn at_home(data: &Path, home: &Path, args: &[&str]) -> Output {
    command(data)
        .env("HOME", home)
        .args(args)
        .output()
        .expect("the binary runs")
}

fn filesystem_js() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(
        "../../tests/fixtures/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js",
    );
    assert!(
        path.is_file(),
        "server-filesystem is missing at {}: run scripts/install-test-deps.sh",
        path.display()
    );
    path.display().to_string()
}

/// A `write_file` call of `path` through the CLI.
fn write(data: &Path, home: &Path, path: &str) -> Output {
    let arguments = serde_json::json!({ "path": path, "content": "ssh-ed25519 AAAA intruder" });
    at_home(
        data,
        home,
        &["call", "fs", "write_file", "--args", &arguments.to_string()],
    )
}

#[test]
fn the_headline_path_rule_holds_against_dot_dot_home_and_a_link() {
    let dir = tempfile::tempdir().expect("temp dir");
    let home = std::fs::canonicalize(dir.path())
        .expect("canonical")
        .join("home");
    let data = dir.path().join("data");
    std::fs::create_dir_all(home.join("projects")).expect("projects");
    std::fs::create_dir_all(home.join(".ssh")).expect(".ssh");
    std::os::unix::fs::symlink("../.ssh", home.join("projects/keys")).expect("link");
    let keys = home.join(".ssh/authorized_keys");
    let home_text = home.display().to_string();

    // server-filesystem may write anywhere in the home folder.
    let added = at_home(
        &data,
        &home,
        &[
            "server",
            "add",
            "fs",
            "--command",
            "node",
            "--arg",
            &filesystem_js(),
            "--arg",
            &home_text,
        ],
    );
    assert!(added.status.success(), "{}", stderr(&added));
    let set = at_home(
        &data,
        &home,
        &[
            "policy",
            "set",
            "fs",
            "--tool",
            "write_file",
            "--arg",
            "/path=~/projects/**",
            "--outside",
            "deny",
        ],
    );
    assert!(set.status.success(), "{}", stderr(&set));
    let rule = String::from_utf8_lossy(&set.stdout)
        .trim()
        .strip_prefix("added rule ")
        .expect("the rule's id is printed")
        .to_owned();

    for escaping in [
        format!("{home_text}/projects/../.ssh/authorized_keys"),
        format!("{home_text}/projects//./../.ssh/authorized_keys"),
        "~/projects/../.ssh/authorized_keys".to_owned(),
        format!("{home_text}/projects/keys/authorized_keys"),
    ] {
        let refused = write(&data, &home, &escaping);
        assert_eq!(
            refused.status.code(),
            Some(4),
            "{escaping} must be denied: {}",
            stderr(&refused)
        );
        let said = stderr(&refused);
        assert!(
            said.contains("denied") && said.contains(&rule),
            "{escaping}: the refusal names the rule: {said}"
        );
        assert!(!keys.exists(), "{escaping}: nothing reached the server");
    }

    let inside = write(&data, &home, &format!("{home_text}/projects/notes.txt"));
    assert!(inside.status.success(), "{}", stderr(&inside));
    assert!(
        home.join("projects/notes.txt").is_file(),
        "inside is written"
    );

    // Without the rule the server does write where the escaping path leads.
    let removed = at_home(&data, &home, &["policy", "rm", &rule]);
    assert!(removed.status.success(), "{}", stderr(&removed));
    let unguarded = write(
        &data,
        &home,
        &format!("{home_text}/projects/../.ssh/authorized_keys"),
    );
    assert!(unguarded.status.success(), "{}", stderr(&unguarded));
    assert!(
        keys.is_file(),
        "the server writes there when nothing stops it"
    );
}
