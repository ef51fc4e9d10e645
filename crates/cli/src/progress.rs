//! Progress of a running request on stderr. On a terminal one bar is redrawn in place with `\r`
//! and erased when the request ends; elsewhere (a pipe, a log file, CI) each update is its own
//! line, so nothing is lost and no control characters are written.

use std::io::{IsTerminal, Write};

use gatehouse_host::protocol::{Progress, Task};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// Width of the bar itself, in characters.
const BAR_WIDTH: usize = 24;

/// Draws updates from `updates` until the channel closes (the request ended), then erases the
/// bar. Await the handle before printing the result, so the two never interleave.
pub fn spawn(mut updates: mpsc::Receiver<Progress>) -> JoinHandle<()> {
    let terminal = std::io::stderr().is_terminal();
    tokio::spawn(async move {
        let mut drawn = false;
        while let Some(update) = updates.recv().await {
            let mut stderr = std::io::stderr().lock();
            let written = if terminal {
                drawn = true;
                write!(stderr, "\r\x1b[2K{}", bar_line(&update))
            } else {
                writeln!(stderr, "progress: {}", plain_line(&update))
            };
            if written.and_then(|()| stderr.flush()).is_err() {
                return;
            }
        }
        if drawn {
            let mut stderr = std::io::stderr().lock();
            let _ = write!(stderr, "\r\x1b[2K");
            let _ = stderr.flush();
        }
    })
}

/// A sender of task status updates that shows each one on the progress display, so a tool that
/// runs as a task reads like any long call: `task working: Analyzing content...`.
pub fn task_updates(updates: mpsc::Sender<Progress>) -> mpsc::Sender<Task> {
    let (tasks, mut received) = mpsc::channel::<Task>(gatehouse_host::protocol::UPDATE_BUFFER);
    tokio::spawn(async move {
        let mut step = 0.0;
        while let Some(task) = received.recv().await {
            step += 1.0;
            let detail = task
                .status_message
                .map(|m| format!(": {m}"))
                .unwrap_or_default();
            let message = Some(format!("task {}{detail}", task.status));
            if updates
                .send(Progress {
                    progress: step,
                    total: None,
                    message,
                })
                .await
                .is_err()
            {
                return;
            }
        }
    });
    tasks
}

/// The fraction done, when the total is known and sensible.
fn fraction(update: &Progress) -> Option<f64> {
    update
        .total
        .filter(|total| *total > 0.0)
        .map(|total| (update.progress / total).clamp(0.0, 1.0))
}

/// `[##########--------------]  42% 5/12 message`, or without a total `5 message`.
fn bar_line(update: &Progress) -> String {
    let counts = counts(update);
    let line = match fraction(update) {
        Some(done) => {
            // A rounded value in 0..=BAR_WIDTH, so the cast cannot truncate.
            let filled = ((done * BAR_WIDTH as f64).round() as usize).min(BAR_WIDTH);
            format!(
                "[{}{}] {:>3.0}% {counts}",
                "#".repeat(filled),
                "-".repeat(BAR_WIDTH - filled),
                done * 100.0
            )
        }
        None => counts,
    };
    with_message(line, update)
}

/// `5/12 (42%) message`, or without a total `5 message`.
fn plain_line(update: &Progress) -> String {
    let line = match fraction(update) {
        Some(done) => format!("{} ({:.0}%)", counts(update), done * 100.0),
        None => counts(update),
    };
    with_message(line, update)
}

fn counts(update: &Progress) -> String {
    match update.total {
        Some(total) => format!("{}/{}", update.progress, total),
        None => update.progress.to_string(),
    }
}

fn with_message(line: String, update: &Progress) -> String {
    match update.message.as_deref().map(str::trim) {
        // One line: a newline from the server would break the bar, an escape the terminal.
        Some(message) if !message.is_empty() => format!(
            "{line} {}",
            crate::terminal_text::visible(&message.replace('\n', " "))
        ),
        _ => line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn update(progress: f64, total: Option<f64>, message: Option<&str>) -> Progress {
        Progress {
            progress,
            total,
            message: message.map(str::to_owned),
        }
    }

    #[test]
    fn draws_a_bar_when_the_total_is_known() {
        assert_eq!(
            bar_line(&update(1.0, Some(4.0), Some("step one"))),
            "[######------------------]  25% 1/4 step one"
        );
        assert_eq!(
            bar_line(&update(9.0, Some(4.0), None)),
            "[########################] 100% 9/4",
            "progress past the total fills the bar, never overflows it"
        );
        assert_eq!(bar_line(&update(7.0, None, None)), "7", "no total, no bar");
    }

    #[test]
    fn plain_lines_carry_the_same_facts() {
        assert_eq!(
            plain_line(&update(3.0, Some(4.0), Some(" almost "))),
            "3/4 (75%) almost"
        );
        assert_eq!(plain_line(&update(2.5, Some(0.0), None)), "2.5/0");
    }
}
