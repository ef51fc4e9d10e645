//! `gatehouse autostart on|off|status`, with HOME and XDG_CONFIG_HOME in a temporary folder:
//! `on` writes `autostart/gatehouse.desktop` there, a desktop entry whose `Exec`, read back by
//! the Desktop Entry Specification's rules, runs the app (a path with a space, a quote and a
//! dollar sign) with `--hidden`; `status` says on, then off after `off`, which removes it; `on`
//! with no app refuses with a message naming GATEHOUSE_APP and writes nothing.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

use serde_json::{Value, json};

/// `gatehouse autostart ARGS` with its home and config folder under `root`, and `app` as
/// GATEHOUSE_APP when given.
fn autostart(root: &Path, app: Option<&Path>, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gatehouse"));
    command
        .arg("autostart")
        .args(args)
        .env("HOME", root.join("home"))
        .env("XDG_CONFIG_HOME", root.join("config"))
        .env_remove("GATEHOUSE_APP");
    if let Some(app) = app {
        command.env("GATEHOUSE_APP", app);
    }
    command.output().expect("the binary runs")
}

fn json_of(output: &Output) -> Value {
    assert!(output.status.success(), "{output:?}");
    serde_json::from_slice(&output.stdout).expect("JSON on stdout")
}

/// The `[Desktop Entry]` group of a desktop entry file: each key's value with the string
/// type's escapes read (`\s`, `\n`, `\t`, `\r`, `\\`). Panics on anything else the
/// specification does not allow: a line that is neither a comment, a group header nor
/// `key=value`, a key twice, keys before the group.
fn desktop_entry(text: &str) -> BTreeMap<String, String> {
    let mut group = None;
    let mut keys = BTreeMap::new();
    for line in text.lines() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            group = Some(name.to_owned());
            continue;
        }
        assert_eq!(
            group.as_deref(),
            Some("Desktop Entry"),
            "a key outside the group: {line}"
        );
        let (key, value) = line
            .split_once('=')
            .unwrap_or_else(|| panic!("not key=value: {line}"));
        let key = key.trim();
        assert!(
            key.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'),
            "a bad key: {key}"
        );
        let mut read = String::new();
        let mut chars = value.trim().chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                read.push(c);
                continue;
            }
            match chars.next() {
                Some('s') => read.push(' '),
                Some('n') => read.push('\n'),
                Some('t') => read.push('\t'),
                Some('r') => read.push('\r'),
                Some('\\') => read.push('\\'),
                other => panic!("a bad escape \\{other:?} in {line}"),
            }
        }
        assert!(keys.insert(key.to_owned(), read).is_none(), "{key} twice");
    }
    keys
}

/// An `Exec` value split into its arguments by the specification's quoting rules.
fn exec_arguments(exec: &str) -> Vec<String> {
    let mut arguments = Vec::new();
    let mut chars = exec.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c == ' ' {
            chars.next();
            continue;
        }
        let mut argument = String::new();
        if c == '"' {
            chars.next();
            loop {
                match chars.next() {
                    Some('"') => break,
                    Some('\\') => argument.push(chars.next().expect("an escaped character")),
                    Some(c) => argument.push(c),
                    None => panic!("an unclosed quote in {exec}"),
                }
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c == ' ' {
                    break;
                }
                assert!(!"\"'\\$`".contains(c), "{c} unquoted in {exec}");
                argument.push(c);
                chars.next();
            }
        }
        assert!(
            !argument.contains('%') || argument.contains("%%"),
            "a field code in {exec}"
        );
        arguments.push(argument.replace("%%", "%"));
    }
    arguments
}

#[test]
fn on_writes_an_entry_that_starts_the_app_hidden_and_off_removes_it() {
    let root = tempfile::tempdir().expect("temp dir");
    let apps = root.path().join("My $Apps \"100%\"");
    std::fs::create_dir_all(&apps).expect("apps folder");
    let app = apps.join("gatehouse app");
    std::fs::write(&app, b"#!/bin/sh\n").expect("an app");
    let entry = root.path().join("config/autostart/gatehouse.desktop");

    let on = json_of(&autostart(root.path(), Some(&app), &["on", "--json"]));
    assert_eq!(on["enabled"], json!(true), "{on}");
    assert_eq!(on["entry"], json!(entry.to_str().expect("utf-8")), "{on}");
    let text = std::fs::read_to_string(&entry).expect("the entry is written");
    let keys = desktop_entry(&text);
    assert_eq!(keys["Type"], "Application");
    assert_eq!(keys["Name"], "Gatehouse");
    assert_eq!(
        exec_arguments(&keys["Exec"]),
        [app.to_str().expect("utf-8"), "--hidden"],
        "Exec runs the app hidden: {text}"
    );
    assert!(
        !root.path().join("home/.config").exists(),
        "XDG_CONFIG_HOME is used, not ~/.config"
    );

    let status = json_of(&autostart(root.path(), None, &["status", "--json"]));
    assert_eq!(status["enabled"], json!(true), "{status}");
    assert_eq!(status["exec"], on["exec"]);
    let said = autostart(root.path(), None, &["status"]);
    assert!(
        String::from_utf8_lossy(&said.stdout).starts_with("autostart on: "),
        "{said:?}"
    );

    let off = json_of(&autostart(root.path(), None, &["off", "--json"]));
    assert_eq!(
        off,
        json!({"enabled": false, "entry": on["entry"], "exec": null})
    );
    assert!(!entry.exists(), "the entry is gone");
    let said = autostart(root.path(), None, &["status"]);
    assert!(
        String::from_utf8_lossy(&said.stdout).starts_with("autostart off: "),
        "{said:?}"
    );
    let again = autostart(root.path(), None, &["off"]);
    assert!(again.status.success(), "off twice is fine: {again:?}");
}

#[test]
fn on_with_no_app_refuses_and_writes_nothing() {
    let root = tempfile::tempdir().expect("temp dir");
    let missing = root.path().join("nowhere/gatehouse-app");
    let output = autostart(root.path(), Some(&missing), &["on"]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.starts_with("error: GATEHOUSE_APP is ") && err.contains("not a file"),
        "{err}"
    );
    assert!(
        !root.path().join("config").exists(),
        "nothing is written: not even the autostart folder"
    );
    let status = json_of(&autostart(root.path(), None, &["status", "--json"]));
    assert_eq!(status["enabled"], json!(false));
}
