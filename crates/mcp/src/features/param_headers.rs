//! Tool parameters mirrored into HTTP headers (2026-07-28 transports/streamable-http, "Custom
//! Headers from Tool Parameters"): a property of a tool's `inputSchema` marked `x-mcp-header`
//! is sent as `Mcp-Param-<Name>` on `tools/call`. The annotation is checked when tools are
//! listed (non-empty, an HTTP token, unique regardless of case, only on `string`, `integer` or
//! `boolean` properties reached from the root through `properties` alone); a tool that breaks a
//! rule is left out of the list with a warning. The whole schema is searched for stray
//! annotations (under `items`, `anyOf`, `then`, `$defs`, unknown keywords, since a `$ref` may
//! point anywhere, or on the root), skipping only instance data (`const`, `enum`, `default`,
//! `examples`) and the names that key `properties`-like maps. The warning names the tool, the
//! broken rule and, for a stray annotation, its JSON pointer.
//!
//! The headers are sent only on modern Streamable HTTP tool calls. An integer argument outside
//! ±(2^53 − 1) cannot be mirrored, so such a call fails with `McpError::InvalidArguments`
//! without being sent. A call refused with `HeaderMismatch` (-32020) was refused before it ran:
//! the tools are listed again and the call is retried once with the headers the refreshed
//! definition asks for.

use serde_json::{Map, Value};

use crate::client::Client;
use crate::era::Era;
use crate::error::{McpError, Result};
use crate::transport::header_value;
use crate::types::Tool;

const ANNOTATION: &str = "x-mcp-header";

/// Keywords whose value is instance data, not schema.
const INSTANCE_DATA: [&str; 4] = ["const", "enum", "default", "examples"];

/// Keywords whose value maps names (of properties, definitions, patterns) to subschemas or
/// lists of names: their keys are never annotations.
const NAMED_ENTRIES: [&str; 6] = [
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
    "dependentRequired",
];

/// One annotated parameter: its path of property names and its header name.
#[derive(Debug, Clone, PartialEq)]
pub struct HeaderParam {
    pub path: Vec<String>,
    pub header: String,
}

/// Why a tool's `x-mcp-header` annotations make it invalid.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AnnotationError {
    #[error("the x-mcp-header of `{property}` is not a string")]
    NotAString { property: String },
    #[error("the x-mcp-header of `{property}` is empty")]
    Empty { property: String },
    #[error("the x-mcp-header `{header}` is not a valid header name")]
    NotAToken { header: String },
    #[error("x-mcp-header on `{property}`, whose type is not string, integer or boolean")]
    NotPrimitive { property: String },
    #[error("the x-mcp-header `{header}` is used twice")]
    UsedTwice { header: String },
    #[error(
        "an x-mcp-header at `{pointer}` is not on a property reached from the root through `properties` alone"
    )]
    Unreachable { pointer: String },
}

/// An HTTP field-name token (RFC 9110 `tchar`).
fn is_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c))
}

/// A search of one `inputSchema` for annotations, remembering where it is.
#[derive(Default)]
struct Search {
    /// The JSON pointer of the value being searched, one unescaped token per step.
    pointer: Vec<String>,
    found: Vec<HeaderParam>,
}

impl Search {
    fn pointer(&self) -> String {
        let tokens = self.pointer.iter();
        std::iter::once("#".to_owned())
            .chain(tokens.map(|t| format!("/{}", t.replace('~', "~0").replace('/', "~1"))))
            .collect()
    }

    /// Searches `value` as a (possible) schema; `chain` holds the property names that lead to
    /// it when it is reached from the root through `properties` alone.
    fn value(&mut self, value: &Value, chain: Option<&[String]>) -> Result<(), AnnotationError> {
        match value {
            Value::Object(schema) => self.schema(schema, chain),
            Value::Array(items) => self.entries(items.iter().enumerate(), |_| None),
            _ => Ok(()),
        }
    }

    /// Searches each `(key, value)`, with the chain `chain_of(key)` gives.
    fn entries<'v, K: ToString>(
        &mut self,
        entries: impl Iterator<Item = (K, &'v Value)>,
        chain_of: impl Fn(&str) -> Option<Vec<String>>,
    ) -> Result<(), AnnotationError> {
        for (key, value) in entries {
            let key = key.to_string();
            let chain = chain_of(&key);
            self.pointer.push(key);
            self.value(value, chain.as_deref())?;
            self.pointer.pop();
        }
        Ok(())
    }

    fn schema(
        &mut self,
        schema: &Map<String, Value>,
        chain: Option<&[String]>,
    ) -> Result<(), AnnotationError> {
        if let Some(annotation) = schema.get(ANNOTATION) {
            match chain {
                Some(path) if !path.is_empty() => self.accept(schema, annotation, path)?,
                _ => {
                    return Err(AnnotationError::Unreachable {
                        pointer: self.pointer(),
                    });
                }
            }
        }
        for (keyword, value) in schema {
            self.pointer.push(keyword.clone());
            match (keyword.as_str(), value) {
                (ANNOTATION, _) => {}
                (k, _) if INSTANCE_DATA.contains(&k) => {}
                ("properties", Value::Object(properties)) => {
                    let extend = |name: &str| chain.map(|path| [path, &[name.to_owned()]].concat());
                    self.entries(properties.iter(), extend)?;
                }
                (k, Value::Object(named)) if NAMED_ENTRIES.contains(&k) => {
                    self.entries(named.iter(), |_| None)?;
                }
                _ => self.value(value, None)?,
            }
            self.pointer.pop();
        }
        Ok(())
    }

    /// Checks an annotation on a property reached through `properties`, at `path`.
    fn accept(
        &mut self,
        property: &Map<String, Value>,
        annotation: &Value,
        path: &[String],
    ) -> Result<(), AnnotationError> {
        let name = path.join(".");
        let header = annotation
            .as_str()
            .ok_or_else(|| AnnotationError::NotAString {
                property: name.clone(),
            })?;
        if header.is_empty() {
            return Err(AnnotationError::Empty { property: name });
        }
        if !is_token(header) {
            let header = header.to_owned();
            return Err(AnnotationError::NotAToken { header });
        }
        let kind = property.get("type").and_then(Value::as_str);
        if !matches!(kind, Some("string" | "integer" | "boolean")) {
            return Err(AnnotationError::NotPrimitive { property: name });
        }
        if self
            .found
            .iter()
            .any(|p| p.header.eq_ignore_ascii_case(header))
        {
            let header = header.to_owned();
            return Err(AnnotationError::UsedTwice { header });
        }
        self.found.push(HeaderParam {
            path: path.to_vec(),
            header: header.to_owned(),
        });
        Ok(())
    }
}

/// The tool's annotated parameters, or why its annotations make it invalid.
pub fn header_params(tool: &Tool) -> Result<Vec<HeaderParam>, AnnotationError> {
    let mut search = Search::default();
    search.value(&tool.input_schema, Some(&[]))?;
    Ok(search.found)
}

impl Client {
    /// The `Mcp-Param-*` headers for a call of `tool` with `arguments` (modern era over
    /// Streamable HTTP only), or why the arguments cannot be mirrored.
    pub(crate) fn parameter_headers(
        &self,
        tool: &str,
        arguments: Option<&Value>,
    ) -> Result<Vec<(String, String)>> {
        if self.era() != Era::Modern || self.transport_kind() != "streamable-http" {
            return Ok(Vec::new());
        }
        let (Some(definition), Some(arguments)) = (self.cached_tool(tool), arguments) else {
            return Ok(Vec::new());
        };
        let Ok(params) = header_params(&definition) else {
            return Ok(Vec::new());
        };
        let mut headers = Vec::new();
        for param in params {
            let Some(value) = param.path.iter().try_fold(arguments, |v, key| v.get(key)) else {
                continue;
            };
            let text =
                header_value::argument_text(value).map_err(|e| McpError::InvalidArguments {
                    tool: tool.to_owned(),
                    message: format!("`{}`: {e}", param.path.join(".")),
                })?;
            if let Some(text) = text {
                headers.push((format!("Mcp-Param-{}", param.header), text));
            }
        }
        Ok(headers)
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
            let error = header_params(&tool(properties.clone()))
                .expect_err("invalid")
                .to_string();
            assert!(error.contains(why), "{properties}: {error}");
        }
    }

    fn tool_with_schema(input_schema: Value) -> Tool {
        serde_json::from_value(json!({"name": "t", "inputSchema": input_schema})).expect("tool")
    }

    #[test]
    fn an_annotation_outside_properties_makes_the_tool_invalid() {
        let string = |header: &str| json!({"type": "string", "x-mcp-header": header});
        let stray = [
            (
                json!({"type": "object", "x-mcp-header": "Root", "properties": {}}),
                "`#`",
            ),
            (
                json!({"type": "object", "properties": {"list": {"type": "array", "items": string("Item")}}}),
                "`#/properties/list/items`",
            ),
            (
                json!({"type": "object", "properties": {"a": {"anyOf": [{"type": "integer"}, string("A")]}}}),
                "`#/properties/a/anyOf/1`",
            ),
            (
                json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/region"}}, "$defs": {"region": string("Region")}}),
                "`#/$defs/region`",
            ),
            (
                json!({"type": "object", "if": {"required": ["a"]}, "then": {"properties": {"a": string("A")}}}),
                "`#/then/properties/a`",
            ),
        ];
        for (schema, pointer) in stray {
            let error = header_params(&tool_with_schema(schema.clone()))
                .expect_err("an annotation off the properties chain is never mirrored, so the tool must be rejected")
                .to_string();
            assert!(
                error.contains(pointer),
                "the warning says where the stray annotation is ({pointer}): {error}"
            );
        }

        let nested = tool_with_schema(json!({"type": "object", "properties": {
            "a": {"type": "object", "properties": {"b": string("B")}},
        }}));
        assert_eq!(
            header_params(&nested),
            Ok(vec![HeaderParam {
                path: vec!["a".into(), "b".into()],
                header: "B".into()
            }]),
            "nested objects are fine as long as every step is a `properties` key"
        );

        let not_annotations = tool_with_schema(json!({"type": "object",
            "properties": {"x-mcp-header": {"type": "string"}},
            "default": {"x-mcp-header": "data"},
            "examples": [{"x-mcp-header": "data"}],
            "enum": [{"x-mcp-header": "data"}],
            "const": {"x-mcp-header": "data"},
            "dependentRequired": {"x-mcp-header": ["other"]},
        }));
        assert_eq!(
            header_params(&not_annotations),
            Ok(vec![]),
            "a property named x-mcp-header and instance data are not annotations; \
             rejecting them would drop a valid tool"
        );
    }
}
