//! Why a path value cannot be placed ([`Escape`]), and the limits that make one.

/// How many symbolic links one resolution follows (Linux's `MAXSYMLINKS`).
pub const MAX_LINKS: usize = 40;

/// The longest path value read (Linux's `PATH_MAX`); a longer one is an [`Escape`].
pub const MAX_PATH_BYTES: usize = 4096;

/// Why a path cannot be placed: it escapes its start, or cannot be resolved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Escape {
    #[error("it climbs above where it starts (a leading `..`)")]
    ClimbsAbove,
    #[error("it is longer than {MAX_PATH_BYTES} bytes")]
    TooLong,
    #[error("it holds a NUL character")]
    Nul,
    #[error("it follows more than {MAX_LINKS} symbolic links (a loop?)")]
    LinkLoop,
    #[error("it is a file URI that is not a local path: {0}")]
    NotLocal(String),
    #[error("there is no home directory to expand `~` to")]
    NoHome,
    #[error("the filesystem cannot resolve it: {0}")]
    Unresolvable(String),
    #[error("it is not valid UTF-8 once resolved")]
    NotUtf8,
}
