//! The words the engine's tiers share, below all of them: who asks and what
//! ([`request`]: `Source`, `GateRequest`), a tool definition's hash ([`definition`]), what a
//! person is asked ([`approval`]: `PendingApproval`), a server's connection state ([`status`]:
//! `ServerStatus`), what a gateway client said of itself ([`caller_info`]), answers it gave unasked ([`given_input`]), the [`events`] the engine emits, and how known secret values are hidden
//! ([`redact`]: `KnownSecrets`, used by the audit log and the server logs alike). Nothing here depends on another module
//! of the crate but `error` and `canonical`.

pub mod approval;
pub mod caller_info;
pub mod definition;
pub mod events;
pub mod given_input;
pub mod http_serving;
pub mod redact;
pub mod request;
pub mod status;
