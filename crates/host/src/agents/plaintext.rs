//! Where a server's entry holds secrets in plaintext: env values, header values, arguments (by
//! value, or after a secret-looking flag such as `--api-key`), the URL's password and
//! secret-looking query parameters, and string fields Gatehouse does not know (Codex's inline
//! `bearer_token`). Each value is judged by [`super::secrets::classify`].

use serde::Serialize;

use super::model::{Launch, ServerEntry};
use super::references;
use super::secrets::{SecretReason, classify};

/// Where in a server's entry a plaintext secret sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SecretPlace {
    Env,
    Header,
    Arg,
    Url,
    /// A field Gatehouse does not know (Codex's inline `bearer_token`, say).
    Field,
}

/// A plaintext secret in a server's entry: where, under which name, and why. Never its value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SecretFound {
    pub place: SecretPlace,
    /// The env or header name, `args[N]`, or the URL's part (`password`, `?api_key`).
    pub name: String,
    pub reason: SecretReason,
}

/// The plaintext secrets in a server's entry: env values, header values, args (by value, or
/// after a secret-looking flag such as `--api-key`), the URL's password and secret-looking query
/// parameters.
pub fn plaintext_secrets(entry: &ServerEntry) -> Vec<SecretFound> {
    let mut found = Vec::new();
    match &entry.launch {
        Launch::Stdio(stdio) => {
            for setting in &stdio.env {
                if let Some(value) = &setting.value
                    && let Some(reason) =
                        classify(Some(&setting.name), value, setting.marked_secret)
                {
                    found.push(SecretFound {
                        place: SecretPlace::Env,
                        name: setting.name.clone(),
                        reason,
                    });
                }
            }
            found.extend(secret_args(&stdio.args));
        }
        Launch::Remote(remote) => {
            for setting in &remote.headers {
                if let Some(value) = &setting.value
                    && let Some(reason) =
                        classify(Some(&setting.name), value, setting.marked_secret)
                {
                    found.push(SecretFound {
                        place: SecretPlace::Header,
                        name: setting.name.clone(),
                        reason,
                    });
                }
            }
            found.extend(secret_url_parts(&remote.url));
        }
    }
    for (key, value) in &entry.unknown {
        if let Some(text) = value.as_str()
            && let Some(reason) = classify(Some(key), text, false)
        {
            found.push(SecretFound {
                place: SecretPlace::Field,
                name: key.clone(),
                reason,
            });
        }
    }
    found
}

fn secret_args(args: &[String]) -> Vec<SecretFound> {
    (0..args.len())
        .filter_map(|i| {
            secret_in_arg(args, i).map(|(_, reason)| SecretFound {
                place: SecretPlace::Arg,
                name: format!("args[{i}]"),
                reason,
            })
        })
        .collect()
}

/// Whether `args[i]` holds a secret: by its value, or after a secret-looking flag (`--api-key
/// VALUE`, `--api-key=VALUE`). Gives where the secret starts in the argument (after the `=`)
/// and why.
pub fn secret_in_arg(args: &[String], i: usize) -> Option<(usize, SecretReason)> {
    let arg = args.get(i)?;
    let flag_name = |arg: &str| arg.trim_start_matches('-').to_owned();
    if let Some((flag, value)) = arg.split_once('=')
        && flag.starts_with('-')
    {
        classify(Some(&flag_name(flag)), value, false).map(|r| (flag.len() + 1, r))
    } else if i > 0
        && args[i - 1].starts_with('-')
        && !args[i - 1].contains('=')
        && !arg.starts_with('-')
    {
        classify(Some(&flag_name(&args[i - 1])), arg, false).map(|r| (0, r))
    } else {
        classify(None, arg, false).map(|r| (0, r))
    }
}

fn secret_url_parts(url: &str) -> Vec<SecretFound> {
    let mut found = Vec::new();
    let Ok(parsed) = url::Url::parse(url) else {
        return found;
    };
    if let Some(password) = parsed.password()
        && !references::literal_part(password).is_empty()
    {
        found.push(SecretFound {
            place: SecretPlace::Url,
            name: "password".into(),
            reason: SecretReason::Name,
        });
    }
    for (key, value) in parsed.query_pairs() {
        if let Some(reason) = classify(Some(&key), &value, false) {
            found.push(SecretFound {
                place: SecretPlace::Url,
                name: format!("?{key}"),
                reason,
            });
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn args_and_urls() {
        let args: Vec<String> = [
            "-y",
            "server",
            "--api-key",
            "hunter2",
            "--token=abc",
            "--port",
            "8080",
            "ghp_0123456789abcdefABCDEF0123456789abcd",
        ]
        .map(String::from)
        .into();
        let names: Vec<String> = secret_args(&args).into_iter().map(|s| s.name).collect();
        assert_eq!(names, ["args[3]", "args[4]", "args[7]"]);
        let parts: Vec<String> = secret_url_parts("https://u:pw@h.example/mcp?api_key=abc&page=2")
            .into_iter()
            .map(|s| s.name)
            .collect();
        assert_eq!(parts, ["password", "?api_key"]);
        assert!(secret_url_parts("http://127.0.0.1:47821/mcp").is_empty());
    }

    #[test]
    fn a_secret_in_a_field_gatehouse_does_not_know_is_counted() {
        let value = serde_json::json!({
            "url": "https://mcp.example.com/mcp",
            "bearer_token": "inline-bearer-value",
            "note": "plain words"
        });
        let entry =
            crate::agents::entry::parse_entry("x", &value, &crate::agents::entry::Dialect::BASE)
                .expect("an entry");
        let found: Vec<(SecretPlace, String)> = plaintext_secrets(&entry)
            .into_iter()
            .map(|s| (s.place, s.name))
            .collect();
        assert_eq!(found, [(SecretPlace::Field, "bearer_token".to_owned())]);
    }
}
