//! The preview's diff shows the lines of the agent's file around each change and the entries
//! taken out, and those hold the plaintext secrets [`crate::agents::plaintext`] finds: each such
//! value is masked in the diff before it is shown, so the preview prints no secret.

use crate::agents::model::{Launch, ServerEntry};
use crate::agents::plaintext::{SecretPlace, plaintext_secrets};

/// What a masked value reads as.
pub const MASK: &str = "********";
/// Shorter values are not masked: they would match ordinary text (none of the secret checks
/// flags such a value anyway).
const SHORTEST: usize = 4;

/// The plaintext secret values of `entries`.
pub fn secret_values(entries: &[ServerEntry]) -> Vec<String> {
    let mut values = Vec::new();
    for entry in entries {
        for found in plaintext_secrets(entry) {
            values.extend(value_of(entry, found.place, &found.name));
        }
    }
    values.retain(|v| v.len() >= SHORTEST);
    // Longest first, so a secret that contains another is masked whole.
    values.sort_by_key(|v| std::cmp::Reverse(v.len()));
    values.dedup();
    values
}

fn value_of(entry: &ServerEntry, place: SecretPlace, name: &str) -> Option<String> {
    match (place, &entry.launch) {
        (SecretPlace::Env, Launch::Stdio(stdio)) => {
            stdio.env.iter().find(|s| s.name == name)?.value.clone()
        }
        (SecretPlace::Header, Launch::Remote(remote)) => remote
            .headers
            .iter()
            .find(|s| s.name == name)?
            .value
            .clone(),
        (SecretPlace::Arg, Launch::Stdio(stdio)) => {
            let index: usize = name
                .strip_prefix("args[")?
                .strip_suffix(']')?
                .parse()
                .ok()?;
            let arg = stdio.args.get(index)?;
            Some(match arg.split_once('=') {
                Some((flag, value)) if flag.starts_with('-') => value.to_owned(),
                _ => arg.clone(),
            })
        }
        (SecretPlace::Url, Launch::Remote(remote)) => {
            let url = url::Url::parse(&remote.url).ok()?;
            match name.strip_prefix('?') {
                Some(key) => url
                    .query_pairs()
                    .find(|(k, _)| k == key)
                    .map(|(_, v)| v.into_owned()),
                None => url.password().map(str::to_owned),
            }
        }
        (SecretPlace::Field, _) => entry.unknown.get(name)?.as_str().map(str::to_owned),
        _ => None,
    }
}

/// The secret-looking string values anywhere in a parsed file (`document`): under a key that
/// looks like a secret's, or looking like a token themselves; a diff's context lines may show
/// any part of the file (`~/.claude.json` holds other projects' servers and more).
pub fn document_secrets(document: &serde_json::Value) -> Vec<String> {
    fn walk(key: Option<&str>, value: &serde_json::Value, out: &mut Vec<String>) {
        match value {
            serde_json::Value::String(text)
                if crate::agents::secrets::classify(key, text, false).is_some() =>
            {
                out.push(text.clone());
                // As the file may write it: JSON-escaped.
                if let Ok(quoted) = serde_json::to_string(text) {
                    out.push(quoted.trim_matches('"').to_owned());
                }
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| walk(key, v, out)),
            serde_json::Value::Object(map) => map.iter().for_each(|(k, v)| walk(Some(k), v, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(None, document, &mut out);
    out.retain(|v| v.len() >= SHORTEST);
    out
}

/// `values` in the order [`mask`] needs: longest first, once each.
pub fn ordered(mut values: Vec<String>) -> Vec<String> {
    values.sort_by_key(|v| std::cmp::Reverse(v.len()));
    values.dedup();
    values
}

/// `text` with every one of `values` masked.
pub fn mask(text: &str, values: &[String]) -> String {
    values.iter().fold(text.to_owned(), |text, value| {
        text.replace(value.as_str(), MASK)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::entry::{Dialect, parse_entry};

    #[test]
    fn env_header_arg_and_url_secrets_are_masked() {
        let stdio = parse_entry(
            "a",
            &serde_json::json!({"command": "x", "args": ["--token=abcd1234efgh"], "env": {"API_KEY": "sk-proj-0123456789abcdef"}}),
            &Dialect::BASE,
        )
        .expect("an entry");
        let remote = parse_entry(
            "b",
            &serde_json::json!({"url": "https://u:pw-secret@h.example/mcp?api_key=qwerty123", "headers": {"Authorization": "Bearer tok-0123456789"}}),
            &Dialect::BASE,
        )
        .expect("an entry");
        let values = secret_values(&[stdio, remote]);
        let text = "sk-proj-0123456789abcdef --token=abcd1234efgh Bearer tok-0123456789 pw-secret qwerty123 plain";
        let masked = mask(text, &values);
        assert_eq!(
            masked, "******** --token=******** ******** ******** ******** plain",
            "{values:?}"
        );
    }
}
