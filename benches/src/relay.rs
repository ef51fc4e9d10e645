//! `gatehouse-bench-relay COMMAND [ARGS…]`: the cheapest process that can sit between an MCP
//! client and a stdio server. It starts the server and copies each line from its own stdin to
//! the server's and from the server's stdout to its own, on two threads blocked in `read`,
//! deciding and recording nothing. The gateway section runs the TypeScript client through it to
//! show what any process in between costs on the machine (two more processes woken per call),
//! apart from what Gatehouse's engine does. It ends when its stdin closes: it closes the
//! server's stdin and waits for it.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, ExitCode, Stdio};

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let Some(program) = args.next() else {
        eprintln!("usage: gatehouse-bench-relay COMMAND [ARGS…]");
        return ExitCode::from(2);
    };
    let mut server = match Command::new(&program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
    {
        Ok(server) => server,
        Err(e) => {
            eprintln!("gatehouse-bench-relay: cannot start {program:?}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (Some(to_server), Some(from_server)) = (server.stdin.take(), server.stdout.take()) else {
        eprintln!("gatehouse-bench-relay: the server's stdio was not piped");
        return ExitCode::FAILURE;
    };
    let back = std::thread::spawn(move || copy_lines(from_server, std::io::stdout()));
    copy_lines(std::io::stdin(), to_server);
    // The server's stdin is closed (`copy_lines` dropped it): it ends, and its stdout with it.
    let _ = back.join();
    match server.wait() {
        Ok(status) if status.success() => ExitCode::SUCCESS,
        _ => ExitCode::FAILURE,
    }
}

/// Copies `from` to `to` a line at a time, each flushed at once, until either side ends.
fn copy_lines(from: impl Read, mut to: impl Write) {
    let mut from = BufReader::new(from);
    let mut line = Vec::new();
    loop {
        line.clear();
        match from.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                if to.write_all(&line).and_then(|()| to.flush()).is_err() {
                    return;
                }
            }
        }
    }
}
