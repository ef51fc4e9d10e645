//! Asking the person to confirm a change that a preview showed (`import`, `connect`): on the
//! terminal, `[y/N]`; without a terminal to ask on, the command needs `--yes`.

use std::io::{BufRead, IsTerminal, Write};

use gatehouse_host::HostError;

/// Whether the person confirms `question` (`y` or `yes`); an error naming `--yes` when there is
/// no terminal to ask on, so that nothing is written unasked.
pub fn confirmed(question: &str, what: &str) -> Result<bool, HostError> {
    if !std::io::stdin().is_terminal() {
        return Err(HostError::Validation(format!(
            "confirm the {what} with --yes (no terminal to ask on); nothing was written"
        )));
    }
    let mut err = std::io::stderr();
    let _ = write!(err, "{question} [y/N] ");
    let _ = err.flush();
    let mut answer = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut answer)
        .map_err(|e| HostError::Io {
            context: "cannot read the answer".into(),
            source: e,
        })?;
    Ok(matches!(answer.trim(), "y" | "Y" | "yes"))
}
