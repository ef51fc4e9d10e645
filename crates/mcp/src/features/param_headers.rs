//! Tool parameters mirrored into HTTP headers (2026-07-28 transports/streamable-http, "Custom
//! Headers from Tool Parameters"): a property of a tool's `inputSchema` marked `x-mcp-header`
//! is sent as `Mcp-Param-<Name>` on `tools/call`. The annotation is checked when tools are
//! listed (non-empty, an HTTP token, unique regardless of case, only on `string`, `integer` or
//! `boolean` properties reached through `properties` alone); a tool that breaks a rule is left
//! out of the list with a warning.

use serde_json::Value;

use crate::client::Client;
use crate::era::Era;
use crate::transport::header_value;
use crate::types::Tool;

/// One annotated parameter: its path of property names and its header name.
#[derive(Debug, Clone, PartialEq)]
pub struct HeaderParam {
    pub path: Vec<String>,
    pub header: String,
}

/// An HTTP field-name token (RFC 9110 `tchar`).
fn is_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c))
}

fn collect(
    schema: &Value,
    path: &mut Vec<String>,
    out: &mut Vec<HeaderParam>,
) -> Result<(), String> {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Ok(());
    };
    for (name, property) in properties {
        path.push(name.clone());
        if let Some(annotation) = property.get("x-mcp-header") {
            let header = annotation.as_str().ok_or("x-mcp-header must be a string")?;
            if header.is_empty() {
                return Err(format!("the x-mcp-header of `{name}` is empty"));
            }
            if !is_token(header) {
                return Err(format!(
                    "the x-mcp-header `{header}` is not a valid header name"
                ));
            }
            let kind = property.get("type").and_then(Value::as_str);
            if !matches!(kind, Some("string" | "integer" | "boolean")) {
                return Err(format!(
                    "x-mcp-header on `{name}`, whose type is not string, integer or boolean"
                ));
            }
            if out.iter().any(|p| p.header.eq_ignore_ascii_case(header)) {
                return Err(format!("the x-mcp-header `{header}` is used twice"));
            }
            out.push(HeaderParam {
                path: path.clone(),
                header: header.to_owned(),
            });
        }
        collect(property, path, out)?;
        path.pop();
    }
    Ok(())
}

/// The tool's annotated parameters, or why its annotations are invalid.
pub fn header_params(tool: &Tool) -> Result<Vec<HeaderParam>, String> {
    let mut out = Vec::new();
    collect(&tool.input_schema, &mut Vec::new(), &mut out)?;
    Ok(out)
}

/// The header text of one argument value; `None` for null or a value of the wrong kind.
fn header_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(header_value::encode(s)),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some(n.to_string()),
        _ => None,
    }
}

impl Client {
    /// The `Mcp-Param-*` headers for a call of `tool` with `arguments` (modern era only).
    pub(crate) fn parameter_headers(
        &self,
        tool: &str,
        arguments: Option<&Value>,
    ) -> Vec<(String, String)> {
        if self.era() != Era::Modern {
            return Vec::new();
        }
        let (Some(tool), Some(arguments)) = (self.cached_tool(tool), arguments) else {
            return Vec::new();
        };
        let Ok(params) = header_params(&tool) else {
            return Vec::new();
        };
        params
            .iter()
            .filter_map(|param| {
                let value = param.path.iter().try_fold(arguments, |v, key| v.get(key))?;
                Some((format!("Mcp-Param-{}", param.header), header_text(value)?))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(properties: Value) -> Tool {
        serde_json::from_value(
            json!({"name": "t", "inputSchema": {"type": "object", "properties": properties}}),
        )
        .expect("tool")
    }

    #[test]
    fn accepts_valid_annotations_and_names_the_broken_rule() {
        let ok = tool(
            json!({"region": {"type": "string", "x-mcp-header": "Region"}, "n": {"type": "integer", "x-mcp-header": "N"}}),
        );
        assert_eq!(header_params(&ok).map(|p| p.len()), Ok(2));
        let cases = [
            (
                json!({"a": {"type": "string", "x-mcp-header": ""}}),
                "empty",
            ),
            (
                json!({"a": {"type": "number", "x-mcp-header": "A"}}),
                "not string, integer or boolean",
            ),
            (
                json!({"a": {"type": "object", "x-mcp-header": "A"}}),
                "not string, integer or boolean",
            ),
            (
                json!({"a": {"type": "string", "x-mcp-header": "My Region"}}),
                "not a valid header name",
            ),
            (
                json!({"a": {"type": "string", "x-mcp-header": "Région"}}),
                "not a valid header name",
            ),
            (
                json!({"a": {"type": "string", "x-mcp-header": "X"}, "b": {"type": "string", "x-mcp-header": "x"}}),
                "used twice",
            ),
        ];
        for (properties, why) in cases {
            let error = header_params(&tool(properties.clone())).expect_err("invalid");
            assert!(error.contains(why), "{properties}: {error}");
        }
    }

    #[test]
    fn encodes_values_and_omits_nulls() {
        assert_eq!(header_text(&json!("us-west1")), Some("us-west1".into()));
        assert_eq!(
            header_text(&json!(" padded ")),
            Some("=?base64?IHBhZGRlZCA=?=".into())
        );
        assert_eq!(header_text(&json!(42)), Some("42".into()));
        assert_eq!(header_text(&json!(false)), Some("false".into()));
        assert_eq!(
            header_text(&json!(null)),
            None,
            "a null argument sends no header"
        );
    }
}
