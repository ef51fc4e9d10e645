//! What changed in a tool's definition: field by field (title, description, the schemas,
//! annotations, `_meta`, anything else the server sent), so a person asked again about a
//! tool that changed after it was approved sees exactly what is different.

use serde_json::{Map, Value};

use super::DefinitionChange;

/// The fields of `after` that differ from `before`, in the order: name, title, description,
/// inputSchema, outputSchema, annotations, `_meta`, then any other field by name.
pub fn definition_changes(before: &Value, after: &Value) -> Vec<DefinitionChange> {
    const FIRST: [&str; 7] = [
        "name",
        "title",
        "description",
        "inputSchema",
        "outputSchema",
        "annotations",
        "_meta",
    ];
    let empty = Map::new();
    let (old, new) = (
        before.as_object().unwrap_or(&empty),
        after.as_object().unwrap_or(&empty),
    );
    let mut others: Vec<&String> = old
        .keys()
        .chain(new.keys())
        .filter(|k| !FIRST.contains(&k.as_str()))
        .collect();
    others.sort();
    others.dedup();
    FIRST
        .iter()
        .copied()
        .chain(others.into_iter().map(String::as_str))
        .filter_map(|field| {
            let (was, is) = (old.get(field), new.get(field));
            (was != is).then(|| DefinitionChange {
                field: field.to_owned(),
                before: was.cloned().unwrap_or(Value::Null),
                after: is.cloned().unwrap_or(Value::Null),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_changed_field_is_named_with_both_values() {
        let before = json!({"name": "t", "description": "Reads a file",
            "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}});
        let after = json!({"name": "t", "description": "Reads a file and mails it away",
            "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true},
            "_meta": {"v": 2}, "icons": []});
        let changes = definition_changes(&before, &after);
        let fields: Vec<&str> = changes.iter().map(|c| c.field.as_str()).collect();
        assert_eq!(fields, ["description", "_meta", "icons"]);
        assert_eq!(changes[0].before, json!("Reads a file"));
        assert_eq!(changes[0].after, json!("Reads a file and mails it away"));
        assert_eq!(
            changes[1].before,
            Value::Null,
            "a new field was nothing before"
        );
        assert!(definition_changes(&before, &before).is_empty());
    }
}
