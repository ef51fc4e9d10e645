//! The restricted schema of form elicitation (2025-11-25 client/elicitation, "Requested
//! Schema"; SEP-1330 enums) as a list of fields a client can ask about one by one, and the
//! checking of one typed answer. Strings (with `format`), booleans, numbers and integers (with
//! bounds), single-select enums (`enum`, `enum` + `enumNames`, `oneOf` of `const`/`title`) and
//! multi-select arrays (`items.enum` or `items.anyOf`, with `minItems`/`maxItems`).

use serde_json::{Value, json};

/// What kind of answer a field takes.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldKind {
    Text {
        format: Option<String>,
    },
    Boolean,
    Number {
        integer: bool,
        minimum: Option<f64>,
        maximum: Option<f64>,
    },
    /// One of `options`, as `(value, label)`.
    Choice {
        options: Vec<(String, String)>,
    },
    /// Several of `options`.
    Choices {
        options: Vec<(String, String)>,
        min_items: Option<u64>,
        max_items: Option<u64>,
    },
}

/// One field of the form.
#[derive(Debug, Clone, PartialEq)]
pub struct FormField {
    pub name: String,
    pub title: String,
    pub description: Option<String>,
    pub required: bool,
    pub default: Option<Value>,
    pub kind: FieldKind,
}

fn options(schema: &Value) -> Option<Vec<(String, String)>> {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        let names = schema.get("enumNames").and_then(Value::as_array);
        return Some(
            values
                .iter()
                .enumerate()
                .filter_map(|(i, v)| {
                    let value = v.as_str()?.to_owned();
                    let label = names
                        .and_then(|n| n.get(i))
                        .and_then(Value::as_str)
                        .unwrap_or(&value)
                        .to_owned();
                    Some((value, label))
                })
                .collect(),
        );
    }
    let alternatives = schema
        .get("oneOf")
        .or_else(|| schema.get("anyOf"))?
        .as_array()?;
    Some(
        alternatives
            .iter()
            .filter_map(|alt| {
                let value = alt.get("const")?.as_str()?.to_owned();
                let label = alt
                    .get("title")
                    .and_then(Value::as_str)
                    .unwrap_or(&value)
                    .to_owned();
                Some((value, label))
            })
            .collect(),
    )
}

/// The fields of a requested schema, in the order the server listed them.
pub fn form_fields(requested_schema: &Value) -> Vec<FormField> {
    let required: Vec<&str> = requested_schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(properties) = requested_schema
        .get("properties")
        .and_then(Value::as_object)
    else {
        return Vec::new();
    };
    properties
        .iter()
        .map(|(name, schema)| {
            let number = |key: &str| schema.get(key).and_then(Value::as_f64);
            let kind = match schema.get("type").and_then(Value::as_str) {
                Some("boolean") => FieldKind::Boolean,
                Some(t @ ("number" | "integer")) => FieldKind::Number {
                    integer: t == "integer",
                    minimum: number("minimum"),
                    maximum: number("maximum"),
                },
                Some("array") => FieldKind::Choices {
                    options: schema.get("items").and_then(options).unwrap_or_default(),
                    min_items: schema.get("minItems").and_then(Value::as_u64),
                    max_items: schema.get("maxItems").and_then(Value::as_u64),
                },
                _ => match options(schema) {
                    Some(options) => FieldKind::Choice { options },
                    None => FieldKind::Text {
                        format: schema
                            .get("format")
                            .and_then(Value::as_str)
                            .map(str::to_owned),
                    },
                },
            };
            FormField {
                name: name.clone(),
                title: schema
                    .get("title")
                    .and_then(Value::as_str)
                    .unwrap_or(name)
                    .to_owned(),
                description: schema
                    .get("description")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
                required: required.contains(&name.as_str()),
                default: schema.get("default").cloned(),
                kind,
            }
        })
        .collect()
}

/// Finds a choice by its value, its label or its 1-based number in the list.
fn pick(options: &[(String, String)], input: &str) -> Option<String> {
    if let Ok(n) = input.parse::<usize>() {
        return options.get(n.checked_sub(1)?).map(|(v, _)| v.clone());
    }
    options
        .iter()
        .find(|(v, l)| v == input || l.eq_ignore_ascii_case(input))
        .map(|(v, _)| v.clone())
}

impl FormField {
    /// Checks a typed answer (already trimmed and non-empty) and returns its JSON value.
    pub fn parse_answer(&self, input: &str) -> Result<Value, String> {
        match &self.kind {
            FieldKind::Text { .. } => Ok(json!(input)),
            FieldKind::Boolean => match input.to_ascii_lowercase().as_str() {
                "y" | "yes" | "true" | "1" => Ok(json!(true)),
                "n" | "no" | "false" | "0" => Ok(json!(false)),
                _ => Err("answer yes or no".to_owned()),
            },
            FieldKind::Number {
                integer,
                minimum,
                maximum,
            } => {
                let value: f64 = input.parse().map_err(|_| "enter a number".to_owned())?;
                if *integer && value.fract() != 0.0 {
                    return Err("enter a whole number".to_owned());
                }
                if minimum.is_some_and(|m| value < m) || maximum.is_some_and(|m| value > m) {
                    let (lo, hi) = (
                        minimum.map_or("-∞".into(), |m| m.to_string()),
                        maximum.map_or("∞".into(), |m| m.to_string()),
                    );
                    return Err(format!("enter a number from {lo} to {hi}"));
                }
                // Integers stay integers on the wire.
                Ok(if *integer {
                    json!(value as i64)
                } else {
                    json!(value)
                })
            }
            FieldKind::Choice { options } => pick(options, input)
                .map(|v| json!(v))
                .ok_or_else(|| "pick one of the listed options".to_owned()),
            FieldKind::Choices {
                options,
                min_items,
                max_items,
            } => {
                let picked: Option<Vec<String>> = input
                    .split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(|s| pick(options, s))
                    .collect();
                let picked = picked.ok_or_else(|| {
                    "pick from the listed options, separated by commas".to_owned()
                })?;
                let count = picked.len() as u64;
                if min_items.is_some_and(|m| count < m) || max_items.is_some_and(|m| count > m) {
                    return Err(format!(
                        "pick between {} and {} options",
                        min_items.unwrap_or(0),
                        max_items.map_or("any number of".to_owned(), |m| m.to_string())
                    ));
                }
                Ok(json!(picked))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema() -> Value {
        json!({"type": "object", "required": ["name"], "properties": {
            "name": {"type": "string", "title": "Name"},
            "ok": {"type": "boolean"},
            "age": {"type": "integer", "minimum": 1, "maximum": 100, "default": 42},
            "friend": {"type": "string", "enum": ["Monica", "Joey"]},
            "hero": {"type": "string", "oneOf": [{"const": "h1", "title": "Superman"}]},
            "pet": {"type": "string", "enum": ["p1", "p2"], "enumNames": ["Cats", "Dogs"]},
            "fish": {"type": "array", "minItems": 1, "maxItems": 2,
                     "items": {"anyOf": [{"const": "f1", "title": "Tuna"}, {"const": "f2", "title": "Trout"}, {"const": "f3", "title": "Eel"}]}}
        }})
    }

    #[test]
    fn reads_every_restricted_schema_kind_in_order() {
        let fields = form_fields(&schema());
        let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            ["name", "ok", "age", "friend", "hero", "pet", "fish"],
            "the server's order is kept"
        );
        assert!(fields[0].required && !fields[1].required);
        assert_eq!(fields[2].default, Some(json!(42)));
        assert!(
            matches!(&fields[5].kind, FieldKind::Choice { options } if options[1] == ("p2".into(), "Dogs".into()))
        );
        assert!(
            matches!(&fields[6].kind, FieldKind::Choices { options, .. } if options.len() == 3)
        );
    }

    #[test]
    fn checks_answers_by_kind() {
        let fields = form_fields(&schema());
        assert_eq!(fields[1].parse_answer("yes"), Ok(json!(true)));
        assert!(fields[1].parse_answer("maybe").is_err());
        assert_eq!(
            fields[2].parse_answer("7"),
            Ok(json!(7)),
            "an integer is sent as an integer"
        );
        assert!(fields[2].parse_answer("7.5").is_err() && fields[2].parse_answer("101").is_err());
        assert_eq!(
            fields[3].parse_answer("2"),
            Ok(json!("Joey")),
            "a choice by its number"
        );
        assert_eq!(
            fields[4].parse_answer("superman"),
            Ok(json!("h1")),
            "a titled choice by its title"
        );
        assert_eq!(fields[6].parse_answer("Tuna, 3"), Ok(json!(["f1", "f3"])));
        assert!(fields[6].parse_answer("1,2,3").is_err(), "maxItems holds");
    }
}
