//! `${VAR}` and `${VAR:-default}` in a server's configuration (an imported agent's servers keep
//! their references to the person's environment this way), expanded when the server is started
//! or connected: in a stdio server's command, arguments, working directory and env values, and
//! in an HTTP server's header values. A name is looked up in the server's own env (for its
//! command, arguments and working directory), then the login shell's environment (the app), then
//! this process's; Gatehouse's own variables (every `GATEHOUSE_…` name) are never given. A
//! secret value (from the keyring) is expanded only when it is one reference and nothing else.
//! An unset name without a default expands to nothing. Text that is not a well-formed reference
//! (`${not a name}`, a lone `$`) stays as written. A value that held a reference is handled as a
//! secret once expanded: it may well be one (`Bearer ${GITHUB_TOKEN}`).

use std::collections::HashMap;

use gatehouse_mcp::Sensitive;

use super::launch::is_own_secret;

/// The variables a reference may name.
#[derive(Debug, Default)]
pub struct Environment {
    vars: HashMap<String, String>,
}

impl Environment {
    /// This process's environment with `login` (the login shell's variables) over it, less
    /// Gatehouse's own secrets.
    pub fn new(login: &[(String, String)]) -> Self {
        let mut vars: HashMap<String, String> = std::env::vars_os()
            .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
            .collect();
        vars.extend(login.iter().cloned());
        // Gatehouse's own variables (its secrets, `GATEHOUSE_INPUT_…` values given to an
        // import, its data directory) are never given to a server through a reference.
        vars.retain(|name, _| !name.starts_with("GATEHOUSE_") && !is_own_secret(name));
        Environment { vars }
    }

    /// The names the references in `text` give and their values (their defaults where unset),
    /// for the logs to hide those that are secrets.
    pub fn referenced(&self, text: &str) -> Vec<(String, String)> {
        let mut found = Vec::new();
        let mut rest = text;
        while let Some(start) = rest.find("${") {
            let after = &rest[start + 2..];
            let Some(end) = after.find('}') else { break };
            if let Some((name, default)) = parse(&after[..end]) {
                let value = match (self.get(name), default) {
                    (Some(""), Some(default)) | (None, Some(default)) => default,
                    (Some(value), _) => value,
                    (None, None) => "",
                };
                if !value.is_empty() {
                    found.push((name.to_owned(), value.to_owned()));
                }
            }
            rest = &after[end + 1..];
        }
        found
    }

    /// `name` set to `value` over what there is (a server's own env for its arguments).
    pub fn set(&mut self, name: &str, value: &str) {
        self.vars.insert(name.to_owned(), value.to_owned());
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.vars.get(name).map(String::as_str)
    }

    /// `text` with its references expanded; `None` when it has none (nothing to do).
    pub fn expand(&self, text: &str) -> Option<String> {
        let mut out = String::new();
        let mut rest = text;
        let mut found = false;
        while let Some(start) = rest.find("${") {
            let after = &rest[start + 2..];
            let Some(end) = after.find('}') else { break };
            out.push_str(&rest[..start]);
            match parse(&after[..end]) {
                Some((name, default)) => {
                    found = true;
                    match (self.get(name), default) {
                        (Some(""), Some(default)) => out.push_str(default),
                        (Some(value), _) => out.push_str(value),
                        (None, Some(default)) => out.push_str(default),
                        (None, None) => {}
                    }
                }
                None => out.push_str(&rest[start..start + 3 + end]),
            }
            rest = &after[end + 1..];
        }
        out.push_str(rest);
        found.then_some(out)
    }
}

/// `NAME` or `NAME:-default`, NAME a shell variable name.
fn parse(inner: &str) -> Option<(&str, Option<&str>)> {
    let (name, default) = match inner.split_once(":-") {
        Some((name, default)) => (name, Some(default)),
        None => (inner, None),
    };
    let valid = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    valid.then_some((name, default))
}

/// Expands the references of a stdio server: its env first (plain values that held one move to
/// `secret`), then its command, arguments and working directory with its own env over the rest.
/// Returns the expanded values, for the server's log to redact.
pub fn expand_stdio(
    env: &Environment,
    command: &mut String,
    args: &mut [String],
    cwd: &mut Option<std::path::PathBuf>,
    plain: &mut Vec<(String, String)>,
    secret: &mut Vec<(String, Sensitive<String>)>,
) -> Vec<String> {
    let mut expanded = Vec::new();
    let mut own = Environment {
        vars: env.vars.clone(),
    };
    let mut kept = Vec::with_capacity(plain.len());
    for (name, value) in plain.drain(..) {
        match env.expand(&value) {
            Some(value) => {
                own.set(&name, &value);
                expanded.push(value.clone());
                secret.push((name, Sensitive::new(value)));
            }
            None => {
                own.set(&name, &value);
                kept.push((name, value));
            }
        }
    }
    *plain = kept;
    for (name, value) in secret.iter_mut() {
        if let Some(new) = expand_whole(env, value.expose()) {
            expanded.push(new.clone());
            *value = Sensitive::new(new);
        }
        own.set(name, value.expose());
    }
    if let Some(new) = own.expand(command) {
        *command = new;
    }
    for arg in args.iter_mut() {
        if let Some(new) = own.expand(arg) {
            expanded.push(new.clone());
            *arg = new;
        }
    }
    if let Some(dir) = cwd
        && let Some(new) = dir.to_str().and_then(|d| own.expand(d))
    {
        *dir = new.into();
    }
    expanded
}

/// Expands the references of an HTTP server's headers; a plain header that held one moves to
/// `secret`.
pub fn expand_headers(
    env: &Environment,
    plain: &mut Vec<(String, String)>,
    secret: &mut Vec<(String, Sensitive<String>)>,
) {
    let mut kept = Vec::with_capacity(plain.len());
    for (name, value) in plain.drain(..) {
        match env.expand(&value) {
            Some(value) => secret.push((name, Sensitive::new(value))),
            None => kept.push((name, value)),
        }
    }
    *plain = kept;
    for (_, value) in secret.iter_mut() {
        if let Some(new) = expand_whole(env, value.expose()) {
            *value = Sensitive::new(new);
        }
    }
}

/// A secret value from the keyring is expanded only when it is one reference and nothing else
/// (`${VAR:-default}`, as import keeps a secret default): a password that merely contains `${`
/// is given as it is.
fn expand_whole(env: &Environment, value: &str) -> Option<String> {
    let inner = value.strip_prefix("${")?.strip_suffix('}')?;
    if inner.contains('}') {
        return None;
    }
    parse(inner)?;
    env.expand(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Environment {
        Environment {
            vars: pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    #[test]
    fn references_expand_with_defaults_and_the_rest_stays_as_written() {
        let e = env(&[("TOKEN", "abc"), ("EMPTY", "")]);
        assert_eq!(e.expand("Bearer ${TOKEN}").as_deref(), Some("Bearer abc"));
        assert_eq!(e.expand("${MISSING:-dflt}").as_deref(), Some("dflt"));
        assert_eq!(e.expand("${EMPTY:-dflt}").as_deref(), Some("dflt"));
        assert_eq!(e.expand("[${MISSING}]").as_deref(), Some("[]"));
        assert_eq!(e.expand("${not a name} $TOKEN"), None);
        assert_eq!(e.expand("cost ${"), None);
    }

    #[test]
    fn gatehouses_own_secrets_are_never_given() {
        let e = Environment::new(&[("GATEHOUSE_IDP_CLIENT_SECRET".into(), "x".into())]);
        assert_eq!(
            e.expand("${GATEHOUSE_IDP_CLIENT_SECRET}").as_deref(),
            Some("")
        );
    }

    #[test]
    fn a_stdio_servers_arguments_see_its_own_env_and_expanded_values_become_secret() {
        let e = env(&[("HOME_TOKEN", "t0k")]);
        let mut command = "srv".to_string();
        let mut args = vec!["--key".to_string(), "${IMPORTED_SECRET_ARG_2}".to_string()];
        let mut cwd = None;
        let mut plain = vec![
            ("A".to_string(), "${HOME_TOKEN}".to_string()),
            ("B".into(), "1".into()),
        ];
        let mut secret = vec![
            (
                "IMPORTED_SECRET_ARG_2".to_string(),
                Sensitive::new("s3cret".to_string()),
            ),
            (
                "PW".to_string(),
                Sensitive::new("a${HOME_TOKEN}b".to_string()),
            ),
            (
                "DEFAULTED".to_string(),
                Sensitive::new("${UNSET_X:-sk-dflt}".to_string()),
            ),
        ];
        let expanded = expand_stdio(
            &e,
            &mut command,
            &mut args,
            &mut cwd,
            &mut plain,
            &mut secret,
        );
        assert_eq!(args[1], "s3cret");
        assert_eq!(plain, vec![("B".to_string(), "1".to_string())]);
        assert!(secret.iter().any(|(k, v)| k == "A" && v.expose() == "t0k"));
        assert!(expanded.contains(&"t0k".to_string()));
        let secret_of = |k: &str| {
            secret
                .iter()
                .find(|(n, _)| n == k)
                .map(|(_, v)| v.expose().clone())
        };
        assert_eq!(
            secret_of("PW").as_deref(),
            Some("a${HOME_TOKEN}b"),
            "a password with ${{ kept"
        );
        assert_eq!(secret_of("DEFAULTED").as_deref(), Some("sk-dflt"));
        let named = e.referenced("Bearer ${HOME_TOKEN} ${UNSET_X:-d}");
        assert_eq!(
            named,
            [
                ("HOME_TOKEN".into(), "t0k".into()),
                ("UNSET_X".into(), "d".into())
            ]
        );
    }
}
