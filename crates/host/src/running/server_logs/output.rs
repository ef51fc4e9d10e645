//! The hook a stdio transport calls with each line of its server's output: secret values are
//! hidden first ([`KnownSecrets`], the audit log's redaction of known values), and only the
//! redacted stderr line is kept ([`ServerLogs`]). So no path (the transport's ring, its "last
//! stderr line" in an error, `tracing`, the log files, the app) ever sees the raw line.
//!
//! Limitation: a secret is found only whole, or as its start (4 characters or more) at the end
//! of a line cut at 64 KiB; a server that splits a secret over two lines, or encodes it, gets
//! past this.

use gatehouse_mcp::transport::stderr::ServerOutput;

use super::ServerLogs;
use crate::vocabulary::redact::KnownSecrets;

/// One server's output: its secret values and its log.
#[derive(Debug)]
pub struct ServerStderr {
    server_id: String,
    secrets: KnownSecrets,
    logs: ServerLogs,
}

impl ServerStderr {
    pub fn new(server_id: &str, secrets: KnownSecrets, logs: ServerLogs) -> Self {
        Self {
            server_id: server_id.to_owned(),
            secrets,
            logs,
        }
    }
}

impl ServerOutput for ServerStderr {
    fn redact(&self, text: &str, cut: bool) -> String {
        if cut {
            self.secrets.scrub_cut(text)
        } else {
            self.secrets.scrub(text)
        }
    }

    fn stderr_line(&self, line: &str) {
        self.logs.append(&self.server_id, line);
    }
}
