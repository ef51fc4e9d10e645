//! Shared scaffolding of the host's integration tests: where the fixture servers are, a stdio
//! server config, and waiting for a live server to leave `connecting`.

#![allow(dead_code)] // each test file is its own crate and uses a part of this

use std::path::PathBuf;
use std::time::Duration;

use gatehouse_host::{Host, ServerInput, ServerSpec, ServerStatus};

/// The repository's `tests/fixtures` folder.
pub fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

/// server-everything's entry point, installed by `scripts/install-test-deps.sh`.
pub fn everything_js() -> String {
    let path =
        fixtures().join("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    assert!(
        path.is_file(),
        "server-everything is missing at {}: run scripts/install-test-deps.sh",
        path.display()
    );
    path.display().to_string()
}

/// An enabled stdio server without roots or environment.
pub fn stdio(name: &str, command: &str, args: Vec<String>) -> ServerInput {
    ServerInput {
        name: name.to_owned(),
        enabled: true,
        roots: Vec::new(),
        spec: ServerSpec::Stdio {
            command: command.to_owned(),
            args,
            env: vec![],
            cwd: None,
        },
    }
}

/// server-everything over stdio, under `name`.
pub fn everything(name: &str) -> ServerInput {
    stdio(name, "node", vec![everything_js(), "stdio".into()])
}

/// The server's status once it is no longer connecting (at most 60 s).
pub async fn settled(host: &Host, name: &str) -> ServerStatus {
    for _ in 0..600 {
        let status = host.server(name).await.expect("the server exists").status;
        if !matches!(status, ServerStatus::Connecting) {
            return status;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{name} must leave `connecting` within 60 s");
}
