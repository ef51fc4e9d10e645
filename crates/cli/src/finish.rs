//! How a command that did not fail ends, and the exit status each ending gives: 0, 3 when the
//! called tool reported an error (`isError`), 130 when the person pressed Ctrl-C.

use std::process::ExitCode;

/// How a run that did not fail ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finish {
    /// Everything worked: exit status 0.
    Success,
    /// The protocol worked but the called tool reported an error (`isError`): exit status 3.
    ToolError,
    /// The user pressed Ctrl-C; the request was cancelled on the server: exit status 130.
    Interrupted,
}

impl Finish {
    pub fn exit_code(self) -> ExitCode {
        match self {
            Finish::Success => ExitCode::SUCCESS,
            Finish::ToolError => ExitCode::from(3),
            Finish::Interrupted => ExitCode::from(130),
        }
    }
}
