//! An HTTP server's configured headers checked: valid names and values, none the transports
//! set themselves.

use super::invalid::invalid;
use crate::error::Result;
use crate::store::registry::model::HttpHeader;

/// Headers the HTTP transports set themselves; a config may not override them.
const RESERVED_HEADERS: &[&str] = &[
    "accept",
    "content-type",
    "content-length",
    "host",
    "mcp-session-id",
    "mcp-protocol-version",
    "last-event-id",
];

pub(super) fn validate_headers(headers: Vec<HttpHeader>) -> Result<Vec<HttpHeader>> {
    headers
        .into_iter()
        .map(|h| {
            let name = h.name.trim().to_owned();
            let token = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
            if name.is_empty() || !name.chars().all(token) {
                return Err(invalid(format!("invalid header name `{name}`")));
            }
            if RESERVED_HEADERS.contains(&name.to_ascii_lowercase().as_str()) {
                return Err(invalid(format!(
                    "the header `{name}` is set by the transport and cannot be configured"
                )));
            }
            if h.value.contains(['\r', '\n', '\0']) {
                return Err(invalid(format!(
                    "the value of header `{name}` must be a single line"
                )));
            }
            Ok(HttpHeader {
                name,
                value: h.value.trim().to_owned(),
                secret: h.secret,
            })
        })
        .collect()
}
