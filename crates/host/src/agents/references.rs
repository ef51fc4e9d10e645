//! The `${…}` references agents expand in config values, found and named but never resolved
//! here: `${VAR}` and `${VAR:-default}` (Claude Code's `.mcp.json`), `${env:VAR}` and
//! `${input:ID}` (VS Code, Cursor, Windsurf), and the editors' own variables such as
//! `${workspaceFolder}`. Import keeps them as references to the person's environment.

use serde::Serialize;

/// One reference found in a value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Reference {
    /// `${VAR}`, `${env:VAR}`, or `${VAR:-default}` (the default kept).
    Env {
        name: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        default: Option<String>,
    },
    /// VS Code's `${input:ID}`: a value the agent asks the person for.
    Input { id: String },
    /// An editor's own variable (`${workspaceFolder}`, `${userHome}`).
    Predefined { name: String },
}

/// Every reference in `text`, in order. `$VAR` without braces is not one (no agent in the table
/// expands it in MCP config, except Gemini, which documents `$VAR` too: see [`find_bare`]).
pub fn find(text: &str) -> Vec<Reference> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else { break };
        if let Some(reference) = parse(&after[..end]) {
            found.push(reference);
        }
        rest = &after[end + 1..];
    }
    found
}

/// Gemini CLI also expands `$VAR` (no braces) in its settings.
pub fn find_bare(text: &str) -> Vec<Reference> {
    let mut found = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'$'
            && bytes
                .get(i + 1)
                .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
        {
            let start = i + 1;
            let mut end = start;
            while end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_') {
                end += 1;
            }
            found.push(Reference::Env {
                name: text[start..end].to_owned(),
                default: None,
            });
            i = end;
        } else {
            i += 1;
        }
    }
    found
}

/// The text left when every `${…}` reference is taken out: what of the value is literal.
pub fn literal_part(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else { break };
        out.push_str(&rest[..start]);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

fn parse(inner: &str) -> Option<Reference> {
    if let Some(id) = inner.strip_prefix("input:") {
        return Some(Reference::Input { id: id.to_owned() });
    }
    if let Some(name) = inner.strip_prefix("env:") {
        return Some(Reference::Env {
            name: name.to_owned(),
            default: None,
        });
    }
    let (name, default) = match inner.split_once(":-") {
        Some((name, default)) => (name, Some(default.to_owned())),
        None => (inner, None),
    };
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    // Environment variables are written in capitals by convention; a camelCase name is an
    // editor's own variable (`${workspaceFolder}`, `${userHome}`, `${pathSeparator}`).
    if default.is_none() && name.chars().any(|c| c.is_ascii_lowercase()) {
        return Some(Reference::Predefined {
            name: name.to_owned(),
        });
    }
    Some(Reference::Env {
        name: name.to_owned(),
        default,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(name: &str, default: Option<&str>) -> Reference {
        Reference::Env {
            name: name.into(),
            default: default.map(Into::into),
        }
    }

    #[test]
    fn each_form_is_named() {
        assert_eq!(find("${API_KEY}"), vec![env("API_KEY", None)]);
        assert_eq!(
            find("http://${HOST:-localhost:8080}/mcp"),
            vec![env("HOST", Some("localhost:8080"))]
        );
        assert_eq!(find("Bearer ${env:GH_TOKEN}"), vec![env("GH_TOKEN", None)]);
        assert_eq!(
            find("${input:api-key}"),
            vec![Reference::Input {
                id: "api-key".into()
            }]
        );
        assert_eq!(
            find("${workspaceFolder}/data"),
            vec![Reference::Predefined {
                name: "workspaceFolder".into()
            }]
        );
        assert_eq!(find("${A}-${B}"), vec![env("A", None), env("B", None)]);
    }

    #[test]
    fn near_misses_are_not_references() {
        assert!(find("$API_KEY").is_empty());
        assert!(find("${unclosed").is_empty());
        assert!(find("${}").is_empty());
        assert!(find("${has space}").is_empty());
        assert_eq!(find_bare("$MY_TOKEN and $1"), vec![env("MY_TOKEN", None)]);
    }

    #[test]
    fn the_literal_part_leaves_out_references() {
        assert_eq!(literal_part("Bearer ${TOKEN}"), "Bearer ");
        assert_eq!(literal_part("${A}${input:b}"), "");
        assert_eq!(literal_part("plain"), "plain");
    }
}
