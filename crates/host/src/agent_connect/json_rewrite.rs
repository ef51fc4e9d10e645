//! Rewriting an agent's JSON or JSONC config (every agent but Codex) through `jsonc-parser`'s
//! concrete syntax tree: the imported entries and the entries that already go through Gatehouse
//! are taken out of the servers object, Gatehouse's own entry is put in (in place of an earlier
//! one, else at the end), and every other byte of the file (its other keys, comments, blank
//! lines, indentation) is left as it was. Text in, text out: no I/O.

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstInputValue, CstObject, CstRootNode};
use serde_json::Value;

use super::gateway_entry::{ENTRY_NAME, GatewayLaunch, servers_key};
use crate::agents::Agent;
use crate::agents::model::FileError;
use crate::agents::read::plain;

/// What to change in one servers object of an agent's file.
#[derive(Debug, Clone, Copy)]
pub struct Edit<'a> {
    pub agent: Agent,
    /// Claude Code's per-project section of `~/.claude.json`
    /// (`projects["/home/me/app"].mcpServers`), as the import recorded it.
    pub section: Option<&'a str>,
    /// The entries imported into Gatehouse: taken out.
    pub remove: &'a [String],
    /// The entries that already go through Gatehouse: replaced by Gatehouse's own.
    pub replace: &'a [String],
    pub launch: &'a GatewayLaunch,
}

/// The file's new text.
pub fn rewrite_json(text: &str, edit: &Edit) -> Result<String, FileError> {
    let key = servers_key(edit.agent)
        .filter(|_| edit.agent != Agent::Codex)
        .ok_or_else(|| plain(format!("{} has no JSON servers object", edit.agent.title())))?;
    let desired = edit
        .launch
        .json_entry(edit.agent)
        .ok_or_else(|| plain(format!("{} has no JSON servers object", edit.agent.title())))?;
    let root = CstRootNode::parse(text, &ParseOptions::default()).map_err(|e| FileError {
        message: format!("it is not valid JSON: {}", e.kind()),
        line: Some(e.line_display()),
        column: Some(e.column_display()),
    })?;
    let top = match root.value() {
        None => root.object_value_or_set(),
        Some(_) => root
            .object_value()
            .ok_or_else(|| plain("its top level is not an object".into()))?,
    };
    let servers = servers_object(&top, key, edit.section)?;
    for name in edit.remove.iter().chain(edit.replace) {
        if name != ENTRY_NAME
            && let Some(prop) = servers.get(name)
        {
            prop.remove();
        }
    }
    match servers.get(ENTRY_NAME) {
        Some(prop) if prop.to_serde_value().as_ref() == Some(&desired) => {}
        Some(prop) => {
            let ours = edit
                .replace
                .iter()
                .chain(edit.remove)
                .any(|n| n == ENTRY_NAME);
            if !ours {
                return Err(plain(format!(
                    "it already has a server named `{ENTRY_NAME}` that does not go through Gatehouse; rename it (or import it) first"
                )));
            }
            prop.set_value(input(&desired));
        }
        None => {
            servers.append(ENTRY_NAME, input(&desired));
        }
    }
    Ok(root.to_string())
}

/// The servers object, made when the file has none yet.
fn servers_object(
    top: &CstObject,
    key: &str,
    section: Option<&str>,
) -> Result<CstObject, FileError> {
    let not_object = |what: &str| plain(format!("`{what}` is not an object"));
    let Some(section) = section else {
        return top
            .object_value_or_create(key)
            .ok_or_else(|| not_object(key));
    };
    let path = project_of(section)?;
    let projects = top
        .object_value("projects")
        .ok_or_else(|| plain(format!("it has no `projects` object for {section}")))?;
    let project = projects
        .properties()
        .into_iter()
        .find(|p| p.decoded_name().as_deref() == Some(path.as_str()))
        .ok_or_else(|| plain(format!("it has no project {path:?} (for {section})")))?;
    project
        .object_value()
        .ok_or_else(|| not_object(&format!("projects[{path:?}]")))?
        .object_value_or_create(key)
        .ok_or_else(|| not_object(section))
}

/// The project's path in `projects["PATH"].mcpServers`.
pub fn project_of(section: &str) -> Result<String, FileError> {
    section
        .strip_prefix("projects[")
        .and_then(|s| s.strip_suffix("].mcpServers"))
        .and_then(|quoted| serde_json::from_str::<String>(quoted).ok())
        .ok_or_else(|| plain(format!("`{section}` is not a section Gatehouse knows")))
}

fn input(value: &Value) -> CstInputValue {
    match value {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(items) => CstInputValue::Array(items.iter().map(input).collect()),
        Value::Object(map) => {
            CstInputValue::Object(map.iter().map(|(k, v)| (k.clone(), input(v))).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn launch(agent: Agent) -> GatewayLaunch {
        GatewayLaunch::new(Path::new("/opt/gatehouse"), None, agent)
    }

    fn edit<'a>(agent: Agent, launch: &'a GatewayLaunch, remove: &'a [String]) -> Edit<'a> {
        Edit {
            agent,
            section: None,
            remove,
            replace: &[],
            launch,
        }
    }

    #[test]
    fn comments_other_keys_and_indentation_are_kept() {
        let text = "// top\n{\n    \"theme\": \"x\", // why\n    \"mcpServers\": {\n        /* a */\n        \"a\": { \"command\": \"a\" },\n        \"b\": { \"command\": \"b\" }\n    }\n}\n";
        let launch = launch(Agent::Cursor);
        let remove = vec!["a".to_owned()];
        let out = rewrite_json(text, &edit(Agent::Cursor, &launch, &remove)).expect("rewritten");
        assert!(
            out.starts_with("// top\n{\n    \"theme\": \"x\", // why\n"),
            "{out}"
        );
        assert!(out.contains("/* a */"), "{out}");
        assert!(!out.contains("\"a\": {"), "{out}");
        assert!(
            out.contains("        \"b\": { \"command\": \"b\" },\n        \"gatehouse\": {"),
            "{out}"
        );
        let value: Value =
            jsonc_parser::parse_to_serde_value::<Option<Value>>(&out, &Default::default())
                .expect("parses")
                .expect("a value");
        assert_eq!(
            value["mcpServers"]["gatehouse"]["command"],
            "/opt/gatehouse"
        );
        // Twice is the same text.
        let again = rewrite_json(&out, &edit(Agent::Cursor, &launch, &remove)).expect("rewritten");
        assert_eq!(again, out);
    }

    #[test]
    fn an_empty_file_and_a_project_section() {
        let launch = launch(Agent::Zed);
        let out = rewrite_json("", &edit(Agent::Zed, &launch, &[])).expect("rewritten");
        assert!(out.contains("\"context_servers\""), "{out}");
        let text = r#"{"projects": {"/p": {"mcpServers": {"x": {"command": "x"}}}}, "mcpServers": {"y": {"command": "y"}}}"#;
        let launch = launch_for(Agent::ClaudeCode);
        let remove = vec!["x".to_owned()];
        let mut e = edit(Agent::ClaudeCode, &launch, &remove);
        e.section = Some("projects[\"/p\"].mcpServers");
        let out = rewrite_json(text, &e).expect("rewritten");
        let value: Value = serde_json::from_str(&out).expect("JSON");
        assert!(value["projects"]["/p"]["mcpServers"]["x"].is_null());
        assert_eq!(
            value["projects"]["/p"]["mcpServers"]["gatehouse"]["type"],
            "stdio"
        );
        assert_eq!(value["mcpServers"]["y"]["command"], "y");
    }

    fn launch_for(agent: Agent) -> GatewayLaunch {
        launch(agent)
    }

    #[test]
    fn a_foreign_entry_named_gatehouse_is_refused() {
        let launch = launch(Agent::Cursor);
        let text = r#"{"mcpServers": {"gatehouse": {"command": "something-else"}}}"#;
        let error = rewrite_json(text, &edit(Agent::Cursor, &launch, &[])).expect_err("refused");
        assert!(error.message.contains("rename it"), "{error:?}");
        let bad = rewrite_json("{\n  \"a\": [1,,]\n}", &edit(Agent::Cursor, &launch, &[]))
            .expect_err("refused");
        assert_eq!(bad.line, Some(2));
    }
}
