//! `gatehouse logs <server> [--follow] [--lines N] [--json]`: a server's stderr as its log
//! files in the data directory hold it (`gatehouse_host::server_logs::files`), already redacted
//! of its secret values. It reads the files, so it works while the app (or another command)
//! runs the server; `--follow` polls the current file and moves to the new one when it is
//! rotated, until Ctrl-C or until the reader of stdout goes away.

use std::time::Duration;

use gatehouse_host::server_logs::files::{self, Follower, KEPT_FILES, MAX_FILE_BYTES};
use gatehouse_host::{Host, HostError};
use serde_json::json;

use crate::args::LogsArgs;
use crate::ctrl_c::interrupted;

/// How often `--follow` looks for new lines.
const FOLLOW_EVERY: Duration = Duration::from_millis(200);

pub async fn run(host: &Host, args: LogsArgs) -> Result<(), HostError> {
    let config = host.server(&args.server).await?.config;
    let dir = host.logs().dir().to_path_buf();
    let io = |e: std::io::Error| HostError::Io {
        context: format!("cannot read the log of `{}`", config.name),
        source: e,
    };
    let tail = files::read_tail(
        &dir,
        &config.id,
        args.lines,
        MAX_FILE_BYTES * KEPT_FILES as u64,
    )
    .map_err(io)?;
    if tail.lines.is_empty() && !args.follow {
        say_err!("{} has no stderr lines yet", config.name);
    }
    for (time, line) in &tail.lines {
        print_line(&config.name, time, line, args.json);
    }
    if !args.follow {
        return Ok(());
    }
    let mut follower = Follower::new(&dir, &config.id, tail.end);
    // One listener for the whole follow: a Ctrl-C that comes while lines are printed is not
    // lost.
    let mut interrupt = std::pin::pin!(interrupted());
    loop {
        tokio::select! {
            () = tokio::time::sleep(FOLLOW_EVERY) => {}
            () = &mut interrupt => return Ok(()),
        }
        for (time, line) in follower.poll().map_err(io)? {
            print_line(&config.name, &time, &line, args.json);
        }
        if crate::stdout::closed() {
            return Ok(());
        }
    }
}

fn print_line(server: &str, time: &str, line: &str, json: bool) {
    if json {
        let object = json!({ "time": time, "server": server, "line": line }).to_string();
        crate::stdout::line(&crate::terminal_text::json_escaped(&object));
    } else {
        say!("{time}  {line}");
    }
}
