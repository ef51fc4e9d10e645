//! `gatehouse approvals watch` at a real terminal (a pseudo-terminal from util-linux `script`),
//! attached to `gatehouse serve`: the question of a call under an ask rule appears on every
//! console watching, an answer typed on one reaches the waiting call, and the other console says
//! the request was answered elsewhere.

use std::io::Write;
use std::path::Path;
use std::process::{ChildStdin, Stdio};
use std::time::Duration;

use crate::support::engine::{Gathered, Reaped, serve, wait_connected};
use crate::support::wait::until;

/// `gatehouse approvals watch` on a pseudo-terminal: what it shows, and its keyboard.
struct Console {
    _script: Reaped,
    keys: ChildStdin,
    screen: Gathered,
}

impl Console {
    fn open(data: &Path) -> Console {
        let command = format!(
            "'{}' --data-dir '{}' approvals watch",
            env!("CARGO_BIN_EXE_gatehouse"),
            data.display()
        );
        let mut script = std::process::Command::new("script")
            .args(["-q", "-e", "-c", &command, "/dev/null"])
            .env_remove("GATEHOUSE_DATA_DIR")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("script runs (util-linux)");
        let keys = script.stdin.take().expect("stdin");
        let screen = Gathered::from(script.stdout.take().expect("stdout"));
        let console = Console {
            _script: Reaped(script),
            keys,
            screen,
        };
        console.screen.wait_for(
            "the console watches",
            "answering the engine's requests here",
            Duration::from_secs(20),
        );
        console
    }

    fn type_line(&mut self, line: &str) {
        writeln!(self.keys, "{line}").expect("typed");
        self.keys.flush().expect("typed");
    }
}

#[test]
fn a_question_shows_on_every_watcher_the_first_answer_wins_the_other_sees_it_answered() {
    let data = crate::support::data_with_everything("e");
    let data = data.path();
    let _serve = serve(data);
    wait_connected(data);
    crate::support::ok(data, &["policy", "set", "e", "--tool", "echo", "ask"]);
    let mut first = Console::open(data);
    let second = Console::open(data);

    let mut child = crate::support::command(data)
        .args(["call", "e", "echo", "--args", r#"{"message":"watched"}"#])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("gatehouse call starts");
    let out = Gathered::from(child.stdout.take().expect("stdout"));
    let mut call = Reaped(child);
    for console in [&first, &second] {
        console.screen.wait_for(
            "the question shows on each console",
            "`e` wants to call `echo`",
            Duration::from_secs(20),
        );
        console
            .screen
            .wait_for("and asks", "Allow? [o]nce", Duration::from_secs(5));
        assert!(
            console.screen.text().contains("watched"),
            "the arguments are shown"
        );
    }

    first.type_line("o");
    let status = until("the allowed call ends", Duration::from_secs(20), || {
        call.0.try_wait().expect("wait").ok_or("still waiting")
    });
    assert!(status.success(), "the call allowed on the console succeeds");
    out.wait_for(
        "the result is printed",
        "Echo: watched",
        Duration::from_secs(5),
    );
    second.screen.wait_for(
        "the other console says it was answered elsewhere",
        "answered elsewhere",
        Duration::from_secs(10),
    );
    assert!(
        !first.screen.text().contains("answered elsewhere"),
        "the console that answered is not told its own answer came from elsewhere"
    );
}
