//! The `Mcp-Param-*` headers of a 2026-07-28 `tools/call` matched to the arguments the tool's
//! `inputSchema` marks `x-mcp-header` (basic/transports/streamable-http, "Server Behavior for
//! Custom Headers"): an annotated argument present in the body (a string, boolean or integer)
//! needs its header, equal to it once decoded (integers compared as numbers); a header for an
//! argument that is absent or null is not expected. A failure is `HeaderMismatch` (-32020),
//! before the call runs. Headers naming no annotated argument are left alone, as an intermediary
//! must; they were checked to be readable ([`super::stateless::check`]).

use axum::http::HeaderMap;
use gatehouse_mcp::Tool;
use gatehouse_mcp::features::param_headers::header_params;
use gatehouse_mcp::transport::header_value;
use serde_json::Value;

use crate::gateway::modern::{Refusal, code};

fn mismatch(message: String) -> Refusal {
    Refusal {
        code: code::HEADER_MISMATCH,
        message: format!("Header mismatch: {message}"),
        data: None,
    }
}

/// Whether the call's `Mcp-Param-*` headers carry its annotated arguments. A tool whose
/// annotations are invalid carries none (its client would have left it out).
pub fn check(headers: &HeaderMap, tool: &Value, arguments: Option<&Value>) -> Result<(), Refusal> {
    let Ok(tool) = serde_json::from_value::<Tool>(tool.clone()) else {
        return Ok(());
    };
    let (Ok(params), Some(arguments)) = (header_params(&tool), arguments) else {
        return Ok(());
    };
    for param in params {
        let Some(value) = param.path.iter().try_fold(arguments, |v, key| v.get(key)) else {
            continue;
        };
        if value.is_null() {
            continue;
        }
        let name = format!("mcp-param-{}", param.header.to_ascii_lowercase());
        let Some(raw) = headers.get(&name) else {
            return Err(mismatch(format!(
                "Mcp-Param-{} is missing; the body has `{}`",
                param.header,
                param.path.join(".")
            )));
        };
        let text = header_value::decode(raw.as_bytes())
            .map_err(|e| mismatch(format!("Mcp-Param-{}: {e}", param.header)))?;
        let equal = match value {
            Value::String(s) => *s == text,
            Value::Bool(b) => text == b.to_string(),
            Value::Number(n) => text.parse::<f64>().ok() == n.as_f64(),
            _ => true,
        };
        if !equal {
            return Err(mismatch(format!(
                "Mcp-Param-{} does not match the body's `{}`",
                param.header,
                param.path.join(".")
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::{HeaderName, HeaderValue};
    use serde_json::json;

    fn tool() -> Value {
        json!({
            "name": "execute_sql",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "region": { "type": "string", "x-mcp-header": "Region" },
                    "limit": { "type": "integer", "x-mcp-header": "Limit" },
                    "query": { "type": "string" },
                },
            },
        })
    }

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.append(
                HeaderName::from_bytes(name.as_bytes()).expect("as the test wrote it"),
                HeaderValue::from_str(value).expect("as the test wrote it"),
            );
        }
        headers
    }

    #[test]
    fn annotated_arguments_need_their_headers_equal_once_decoded() {
        let args = json!({ "region": "Hello", "limit": 42, "query": "x" });
        let ok = [
            headers(&[("Mcp-Param-Region", "Hello"), ("mcp-param-limit", "42")]),
            headers(&[
                ("Mcp-Param-Region", "=?base64?SGVsbG8=?="),
                ("Mcp-Param-Limit", "42.0"),
            ]),
        ];
        for h in ok {
            assert_eq!(check(&h, &tool(), Some(&args)), Ok(()), "{h:?}");
        }
        let literal = json!({ "region": "=?base64?SGVsbG8=" });
        let h = headers(&[("Mcp-Param-Region", "=?base64?SGVsbG8=")]);
        assert_eq!(
            check(&h, &tool(), Some(&literal)),
            Ok(()),
            "half a wrapper is literal"
        );
        let absent = json!({ "query": "x", "region": null });
        assert_eq!(check(&HeaderMap::new(), &tool(), Some(&absent)), Ok(()));
    }

    #[test]
    fn a_missing_or_different_header_is_a_header_mismatch() {
        let args = json!({ "region": "Hello", "limit": 42 });
        let refused = [
            headers(&[("Mcp-Param-Limit", "42")]),
            headers(&[("Mcp-Param-Region", "Goodbye"), ("Mcp-Param-Limit", "42")]),
            headers(&[("Mcp-Param-Region", "Hello"), ("Mcp-Param-Limit", "43")]),
            headers(&[
                ("Mcp-Param-Region", "=?base64?SGVsbG8?="),
                ("Mcp-Param-Limit", "42"),
            ]),
        ];
        for h in refused {
            let refusal = check(&h, &tool(), Some(&args)).expect_err("refused");
            assert_eq!(refusal.code, code::HEADER_MISMATCH, "{h:?}");
        }
    }
}
