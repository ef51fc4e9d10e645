//! What a stdio server inherits from Gatehouse's environment: everything but Gatehouse's own
//! secrets. A person who runs `GATEHOUSE_IDP_CLIENT_SECRET=… gatehouse …` hands that secret to
//! Gatehouse, not to every server it starts; a server's own configuration may still set any name.

use std::path::PathBuf;

use crate::support::{command, ok, stderr, stdout};

fn fixture() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/scripts/env_names.py")
        .display()
        .to_string()
}

#[test]
fn gatehouses_own_secret_variables_never_reach_a_server() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path();
    ok(
        data,
        &[
            "server",
            "add",
            "envs",
            "--command",
            "python3",
            "--arg",
            &fixture(),
            "--arg",
            "GATEHOUSE_",
            "--env",
            "GATEHOUSE_OWN_TOKEN=configured-for-this-server",
        ],
    );
    let output = command(data)
        .args(["call", "envs", "env", "--json"])
        .env("GATEHOUSE_IDP_CLIENT_SECRET", "idp-secret-4f1c")
        .env("GATEHOUSE_OAUTH_CLIENT_SECRET", "client-secret-77ad")
        .env("GATEHOUSE_TEST_PLAIN", "a plain setting")
        .output()
        .expect("the binary runs");
    let out = stdout(&output);
    assert!(output.status.success(), "{out}{}", stderr(&output));
    assert!(
        out.contains("GATEHOUSE_TEST_PLAIN"),
        "a plain variable is inherited as before: {out}"
    );
    assert!(
        out.contains("GATEHOUSE_OWN_TOKEN"),
        "a name the server's own configuration sets is kept: {out}"
    );
    for secret in [
        "GATEHOUSE_IDP_CLIENT_SECRET",
        "GATEHOUSE_OAUTH_CLIENT_SECRET",
    ] {
        assert!(!out.contains(secret), "{secret} reached the server: {out}");
    }
}
