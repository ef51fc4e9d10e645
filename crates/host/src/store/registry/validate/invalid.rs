//! The error every validation rule gives: a message that says what is wrong and how to fix
//! it, shown verbatim in the form and the CLI.

use crate::error::HostError;

pub(super) fn invalid(message: impl Into<String>) -> HostError {
    HostError::Validation(message.into())
}
