//! Fault scenario 13 of issue #10: a server that prints its secret env value on stderr (as
//! servers that print their configuration on start-up do) and then dies. The value must appear
//! nowhere: not in the error `gatehouse tools` prints, nor its output, the server's log files,
//! the audit rows, or the database file and its write-ahead log. Run under
//! scripts/with-keyring.sh: the secret goes through the real keyring.

use std::path::{Path, PathBuf};

use crate::support::{gatehouse, ok, stderr, stdout};

fn fixture() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/faults/secret_on_stderr.py")
        .display()
        .to_string()
}

/// Registers the fixture under `name`, in `mode`, with `LEAKY_TOKEN` a secret env value.
fn add_talker(data: &Path, name: &str, mode: &str, secret: &str) {
    let assignment = format!("LEAKY_TOKEN={secret}");
    ok(
        data,
        &[
            "server",
            "add",
            name,
            "--command",
            "python3",
            "--arg",
            &fixture(),
            "--arg",
            "LEAKY_TOKEN",
            "--arg",
            mode,
            "--secret-env",
            &assignment,
        ],
    );
}

/// Every file under `dir`, with its bytes.
fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                todo.push(path);
            } else {
                let bytes = std::fs::read(&path).unwrap_or_default();
                out.push((path, bytes));
            }
        }
    }
    out
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|window| window == needle.as_bytes())
}

fn secret(tag: &str) -> String {
    format!("sek-{tag}-{}-9d1f0b7a", std::process::id())
}

#[test]
fn a_secret_a_dying_server_prints_on_stderr_appears_nowhere() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    let secret = secret("die");
    add_talker(data, "leaky", "die", &secret);

    let output = gatehouse(data, &["tools", "leaky"]);
    let (out, err) = (stdout(&output), stderr(&output));
    assert!(!output.status.success(), "the server died: {out}");
    assert!(
        err.contains("starting with LEAKY_TOKEN=[redacted]"),
        "the error still shows the server's last words, with the secret hidden: {err}"
    );
    assert!(
        !out.contains(&secret) && !err.contains(&secret),
        "the secret must not be printed: {err}"
    );

    let audit = ok(data, &["audit", "list", "--json"]);
    assert!(!audit.contains(&secret), "nor kept in the audit rows");
    let everything = files(data);
    assert!(
        everything
            .iter()
            .any(|(path, _)| path.to_string_lossy().ends_with(".db")),
        "the database is among the files searched"
    );
    let logs: Vec<&(PathBuf, Vec<u8>)> = everything
        .iter()
        .filter(|(path, _)| path.extension().is_some_and(|e| e == "log"))
        .collect();
    assert!(
        logs.iter()
            .any(|(_, bytes)| contains(bytes, "starting with LEAKY_TOKEN=[redacted]")),
        "the server's log file keeps its stderr, redacted: {:?}",
        logs.iter().map(|(p, _)| p).collect::<Vec<_>>()
    );
    for (path, bytes) in &everything {
        assert!(
            !contains(bytes, &secret),
            "the secret must not appear in {}",
            path.display()
        );
    }
}

#[test]
fn a_secret_across_the_cut_of_a_long_stderr_line_is_hidden_too() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    let secret = secret("split");
    add_talker(data, "split", "split", &secret);
    let output = gatehouse(data, &["tools", "split"]);
    assert!(!output.status.success());
    let logs: Vec<u8> = files(data)
        .into_iter()
        .filter(|(path, _)| path.extension().is_some_and(|e| e == "log"))
        .flat_map(|(_, bytes)| bytes)
        .collect();
    let text = String::from_utf8_lossy(&logs);
    assert!(
        text.contains("xxxx[redacted] … [truncated: "),
        "the start of the secret left at the cut is hidden, and the cut marked"
    );
    let start = &secret[..4];
    assert!(
        !text.contains(&format!("xxxx{start}")),
        "not even the secret's first characters stay at the cut"
    );
    assert!(!text.contains(&secret));
}
