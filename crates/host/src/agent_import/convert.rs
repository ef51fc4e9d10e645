//! One agent server entry made into a Gatehouse server: command, args, env and cwd, or URL,
//! transport and headers. Each value is classified ([`crate::agents::secrets`]): a secret becomes
//! a secret env variable or header (kept in the keyring, never in SQLite); a secret passed as an
//! argument moves to a secret env variable the argument names (`${IMPORTED_SECRET_ARG_1}`).
//! References to the person's environment stay references in Gatehouse's own syntax (`${VAR}`,
//! `${VAR:-default}`; VS Code's `${env:VAR}` and Gemini's `$VAR` rewritten to it), which
//! Gatehouse expands when it starts the server ([`crate::running::env_refs`]). VS Code's
//! `${input:ID}` takes the value the person gives at import; the editors' `${workspaceFolder}`
//! and `${userHome}` take the project's directory and the home directory. What cannot be
//! represented is an `Err` with the reason: the entry is skipped, never half-imported.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::agents::model::{
    Agent, ConfigFile, Launch, RemoteTransport, Scope, ServerEntry, Setting,
};
use crate::agents::plaintext::secret_in_arg;
use crate::agents::references::{self, Reference};
use crate::agents::secrets::{SecretReason, classify};
use crate::store::registry::model::{
    EnvVar, HttpHeader, OAuthClientSettings, ServerInput, ServerSpec, ServerTransport, StopGrace,
};

use super::env_file;
use super::mask::mask;

/// What the conversion needs beside the entry.
pub struct Context<'a> {
    pub home: &'a Path,
    /// The project directory given (`--project`), for a project file's relative paths and
    /// `${workspaceFolder}`.
    pub project: Option<&'a Path>,
    /// Values the person gave for VS Code inputs, by [`env_name`].
    pub inputs: &'a BTreeMap<String, String>,
}

/// A value that goes to the keyring, as the preview shows it.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MovedSecret {
    /// `env` or `header`.
    pub kind: &'static str,
    pub name: String,
    /// The value, masked (its first characters and length at most).
    pub masked: String,
    pub reason: SecretReason,
    /// Where the agent had it: an env variable, a header, an argument, an env file, an input.
    pub from: String,
}

/// An entry made into a server.
#[derive(Debug, Clone)]
pub struct Converted {
    pub input: ServerInput,
    pub secrets: Vec<MovedSecret>,
    /// The environment variables its values name, expanded when Gatehouse starts it.
    pub references: Vec<String>,
    pub warnings: Vec<String>,
}

/// The entry as a Gatehouse server named `name`, or why it cannot be one.
pub fn convert(
    file: &ConfigFile,
    entry: &ServerEntry,
    name: &str,
    cx: &Context<'_>,
) -> Result<Converted, String> {
    let mut out = Out {
        file,
        cx,
        password_used: false,
        secrets: Vec::new(),
        references: Vec::new(),
        warnings: entry.warnings.clone(),
    };
    let project_dir = project_dir(file, cx);
    let spec = match &entry.launch {
        Launch::Stdio(stdio) => {
            let command = out.plain_value(&stdio.command, "the command")?;
            let mut env = Vec::new();
            let mut args = Vec::new();
            // Each argument resolved, noting the ones filled in from a password input.
            let mut resolved = Vec::with_capacity(stdio.args.len());
            let mut from_password = Vec::with_capacity(stdio.args.len());
            for arg in &stdio.args {
                out.password_used = false;
                resolved.push(out.resolve(arg)?);
                from_password.push(out.password_used);
            }
            out.password_used = false;
            for (i, arg) in resolved.iter().enumerate() {
                let found = match secret_in_arg(&resolved, i) {
                    Some((at, reason)) if !has_reference(&arg[at..]) => Some((at, reason)),
                    // A value the format marks secret, wherever it sits in the argument.
                    _ if from_password[i] => Some((0, SecretReason::Marked)),
                    _ => None,
                };
                match found {
                    Some((at, reason)) => {
                        let var = format!("IMPORTED_SECRET_ARG_{}", i + 1);
                        let value = arg[at..].to_owned();
                        out.secret("env", &var, &value, reason, format!("argument {}", i + 1));
                        env.push(EnvVar {
                            key: var.clone(),
                            value,
                            secret: true,
                        });
                        args.push(format!("{}${{{var}}}", &arg[..at]));
                    }
                    None => args.push(arg.clone()),
                }
            }
            if let Some(path) = &stdio.env_file {
                let path = out.resolve(path)?;
                let base = project_dir.clone().unwrap_or_else(|| parent_of(&file.path));
                let full = base.join(&path);
                if full.exists() {
                    let settings = env_file::read(&full)
                        .map_err(|e| format!("its envFile {path} cannot be read: {e}"))?;
                    for setting in settings {
                        env.push(out.env_var(&setting, format!("envFile {path}"))?);
                    }
                } else {
                    out.warnings.push(format!(
                        "its envFile {path} does not exist; nothing was taken from it"
                    ));
                }
            }
            for setting in &stdio.env {
                let var = out.env_var(setting, "env".into())?;
                env.retain(|v: &EnvVar| v.key != var.key);
                env.push(var);
            }
            for name in &stdio.env_passed {
                if !env.iter().any(|v| &v.key == name) {
                    out.references.push(name.clone());
                    env.push(EnvVar {
                        key: name.clone(),
                        value: format!("${{{name}}}"),
                        secret: false,
                    });
                }
            }
            let cwd = match &stdio.cwd {
                Some(cwd) => {
                    let cwd = PathBuf::from(out.plain_value(cwd, "the working directory")?);
                    Some(match (&project_dir, cwd.is_absolute()) {
                        (_, true) => cwd,
                        (Some(dir), false) => dir.join(cwd),
                        (None, false) => parent_of(&file.path).join(cwd),
                    })
                }
                // A project's server runs in the project, as the agent runs it.
                None => project_dir.clone(),
            };
            ServerSpec::Stdio {
                command,
                args,
                env,
                cwd: cwd.map(|c| c.display().to_string()),
                stop: StopGrace::default(),
            }
        }
        Launch::Remote(remote) => {
            let url = out.resolve(&remote.url)?;
            if has_reference(&url) || out.password_used {
                // A URL is kept as written, in the database: what it names is not copied there.
                return Err(
                    "its URL names a value from your environment or an input; add it with `gatehouse server add` and the URL you want".into(),
                );
            }
            if classify(None, &url, false).is_some() || url_holds_secret(&url) {
                return Err("its URL holds what looks like a secret, which Gatehouse would have to keep in its database; move it to a header and import again".into());
            }
            let mut headers = Vec::new();
            for setting in &remote.headers {
                headers.push(out.header(setting)?);
            }
            if let Some(var) = &remote.bearer_token_env_var {
                out.references.push(var.clone());
                headers.push(HttpHeader {
                    name: "Authorization".into(),
                    value: format!("Bearer ${{{var}}}"),
                    secret: false,
                });
            }
            for (header, var) in &remote.env_headers {
                out.references.push(var.clone());
                headers.push(HttpHeader {
                    name: header.clone(),
                    value: format!("${{{var}}}"),
                    secret: false,
                });
            }
            ServerSpec::Http {
                url,
                transport: match remote.transport {
                    None => ServerTransport::Auto,
                    Some(RemoteTransport::StreamableHttp) => ServerTransport::StreamableHttp,
                    Some(RemoteTransport::Sse) => ServerTransport::Sse,
                },
                headers,
                oauth: OAuthClientSettings::default(),
            }
        }
    };
    if entry.include_tools.is_some() || entry.exclude_tools.is_some() {
        out.warnings.push(
            "the agent offers only some of its tools; Gatehouse offers them all (hide tools in the client's profile or deny them by policy)".into(),
        );
    }
    if entry.trust == Some(true) {
        out.warnings.push(
            "the agent trusts it (no confirmation); in Gatehouse its calls follow your policy"
                .into(),
        );
    }
    if !entry.unknown.is_empty() {
        let names: Vec<&str> = entry.unknown.keys().map(String::as_str).collect();
        out.warnings
            .push(format!("fields not imported: {}", names.join(", ")));
    }
    let roots = project_dir
        .filter(|_| file.scope == Scope::Project)
        .map(|d| vec![d.display().to_string()])
        .unwrap_or_default();
    out.references.sort();
    out.references.dedup();
    Ok(Converted {
        input: ServerInput {
            name: name.to_owned(),
            enabled: !entry.disabled,
            roots,
            spec,
        },
        secrets: out.secrets,
        references: out.references,
        warnings: out.warnings,
    })
}

struct Out<'a> {
    file: &'a ConfigFile,
    cx: &'a Context<'a>,
    /// A value filled in from an input the format marks `password` since this was last cleared.
    password_used: bool,
    secrets: Vec<MovedSecret>,
    references: Vec<String>,
    warnings: Vec<String>,
}

impl Out<'_> {
    /// A value with its references in Gatehouse's syntax, inputs and editor variables filled in.
    fn resolve(&mut self, text: &str) -> Result<String, String> {
        let text = if self.file.agent == Agent::Gemini {
            braced(text)
        } else {
            text.to_owned()
        };
        let mut out = String::new();
        let mut rest = text.as_str();
        while let Some(start) = rest.find("${") {
            let after = &rest[start + 2..];
            let Some(end) = after.find('}') else { break };
            out.push_str(&rest[..start]);
            let inner = &after[..end];
            let parsed = references::find(&rest[start..start + 3 + end]);
            match parsed.first() {
                Some(Reference::Env { name, default }) => {
                    self.references.push(name.clone());
                    match default {
                        Some(d) => out.push_str(&format!("${{{name}:-{d}}}")),
                        None => out.push_str(&format!("${{{name}}}")),
                    }
                }
                Some(Reference::Input { id }) => match self.cx.inputs.get(&env_name(id)) {
                    Some(value) => {
                        self.password_used |=
                            self.file.inputs.iter().any(|i| &i.id == id && i.password);
                        out.push_str(value);
                    }
                    None => {
                        return Err(format!(
                            "it needs the value of the input `{id}`, which the agent asks for when it starts the server; set GATEHOUSE_INPUT_{} to it and import again",
                            env_name(id)
                        ));
                    }
                },
                Some(Reference::Predefined { name }) => out.push_str(&self.predefined(name)?),
                None => out.push_str(&format!("${{{inner}}}")),
            }
            rest = &after[end + 1..];
        }
        out.push_str(rest);
        Ok(out)
    }

    fn predefined(&self, name: &str) -> Result<String, String> {
        match name {
            "workspaceFolder" | "workspaceRoot" => self
                .cx
                .project
                .map(|d| d.display().to_string())
                .ok_or_else(|| format!("it names ${{{name}}}; import it with --project DIR")),
            "userHome" => Ok(self.cx.home.display().to_string()),
            "pathSeparator" | "/" => Ok(std::path::MAIN_SEPARATOR.to_string()),
            other => Err(format!(
                "it names ${{{other}}}, which Gatehouse cannot fill in"
            )),
        }
    }

    /// A value that may not be secret (a command, a working directory).
    fn plain_value(&mut self, text: &str, what: &str) -> Result<String, String> {
        self.password_used = false;
        let value = self.resolve(text)?;
        let secret = self.password_used
            || (classify(None, &value, false).is_some() && !has_reference(&value));
        self.password_used = false;
        if secret {
            return Err(format!("{what} holds what looks like a secret"));
        }
        Ok(value)
    }

    fn env_var(&mut self, setting: &Setting, from: String) -> Result<EnvVar, String> {
        let (value, secret) = self.setting(setting, "env", from)?;
        Ok(EnvVar {
            key: setting.name.clone(),
            value,
            secret,
        })
    }

    fn header(&mut self, setting: &Setting) -> Result<HttpHeader, String> {
        let (value, secret) = self.setting(setting, "header", "header".into())?;
        Ok(HttpHeader {
            name: setting.name.clone(),
            value,
            secret,
        })
    }

    fn setting(
        &mut self,
        setting: &Setting,
        kind: &'static str,
        from: String,
    ) -> Result<(String, bool), String> {
        let Some(raw) = &setting.value else {
            // The format names it without a value (a registry variable the person supplies):
            // taken from the person's environment.
            let var = env_name(&setting.name);
            self.references.push(var.clone());
            self.warnings.push(format!(
                "{} has no value in the file; Gatehouse takes it from your environment (${{{var}}})",
                setting.name
            ));
            return Ok((format!("${{{var}}}"), false));
        };
        let from_input = raw.contains("${input:");
        let marked = setting.marked_secret || self.input_is_password(raw);
        let value = self.resolve(raw)?;
        let reason = classify(Some(&setting.name), &value, marked);
        match reason {
            Some(reason) => {
                let from = if from_input { "input".to_owned() } else { from };
                self.secret(kind, &setting.name, &value, reason, from);
                Ok((value, true))
            }
            None => Ok((value, false)),
        }
    }

    fn input_is_password(&self, raw: &str) -> bool {
        references::find(raw).iter().any(|r| match r {
            Reference::Input { id } => self.file.inputs.iter().any(|i| &i.id == id && i.password),
            _ => false,
        })
    }

    fn secret(
        &mut self,
        kind: &'static str,
        name: &str,
        value: &str,
        reason: SecretReason,
        from: String,
    ) {
        self.secrets.push(MovedSecret {
            kind,
            name: name.to_owned(),
            masked: mask(value),
            reason,
            from,
        });
    }
}

/// The directory a project file's relative paths are under: the `--project` directory for a
/// project file, none for the person's own.
fn project_dir(file: &ConfigFile, cx: &Context<'_>) -> Option<PathBuf> {
    match file.scope {
        Scope::Project => cx.project.map(Path::to_path_buf),
        Scope::User => None,
    }
}

fn parent_of(path: &Path) -> PathBuf {
    path.parent().map(Path::to_path_buf).unwrap_or_default()
}

fn has_reference(text: &str) -> bool {
    !references::find(text).is_empty()
}

/// A name as an environment variable's: capitals, other characters than letters and digits as
/// `_` (a header `X-API-Key` → `X_API_KEY`; the value of `${input:github-token}` is given as
/// `GATEHOUSE_INPUT_GITHUB_TOKEN`).
pub fn env_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect()
}

/// Gemini CLI's `$VAR` written as `${VAR}`.
fn braced(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 4);
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let starts_name = bytes
            .get(i + 1)
            .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_');
        if bytes[i] == b'$' && starts_name {
            let mut end = i + 1;
            while end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_') {
                end += 1;
            }
            out.push_str("${");
            out.push_str(&text[i + 1..end]);
            out.push('}');
            i = end;
        } else {
            let ch = text[i..].chars().next().unwrap_or_default();
            out.push(ch);
            i += ch.len_utf8().max(1);
        }
    }
    out
}

/// A URL whose query names a key, token or secret with a value.
fn url_holds_secret(url: &str) -> bool {
    let Ok(parsed) = url::Url::parse(url) else {
        return false;
    };
    parsed.password().is_some()
        || parsed
            .query_pairs()
            .any(|(k, v)| !v.is_empty() && crate::agents::secrets::name_looks_secret(&k))
}

#[cfg(test)]
mod tests {
    use super::braced;

    #[test]
    fn gemini_bare_references_are_braced_and_the_rest_kept() {
        assert_eq!(braced("Bearer $TOKEN"), "Bearer ${TOKEN}");
        assert_eq!(braced("${ALREADY} and $A_1/x"), "${ALREADY} and ${A_1}/x");
        assert_eq!(braced("cost $5 é"), "cost $5 é");
    }
}
