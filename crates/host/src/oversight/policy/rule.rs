//! Policy rules: what each says (allow, ask or deny), what it applies to (every server, one
//! server, one tool, or one argument of a tool), and the argument patterns, checked when a rule
//! is made so that a malformed glob or regex is refused with a clear message, never at call
//! time. An argument value that looks like a path is matched as the path it names
//! ([`crate::fs_path`]): normalised, and resolved through symbolic links where it exists.
//!
//! An argument rule names a JSON Pointer into the arguments and matches the value there with a glob
//! (a leading `~/` being the home directory) or a whole-value regex, or, with `outside`, with the
//! pattern's negation. Each rule is for every source or one, and a rule for the gateway can be
//! for one of its clients (the request's caller, the agent's name). A value that looks like a path is
//! matched as `fs_path::read` places it, as written (normalised) and as resolved: an allow rule
//! must hold for both, a deny or ask rule for either; one that cannot be placed is treated like a
//! missing value. Reading it is I/O, so the gate's admission evaluates on `spawn_blocking` when the
//! server has argument rules.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::path_glob;
use crate::error::{HostError, Result};
use crate::fs_path::{self, PathValue};
use crate::vocabulary::request::Source;

/// What a rule (or a decision) says.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Effect {
    Allow,
    Ask,
    Deny,
}

impl Effect {
    pub fn as_str(self) -> &'static str {
        match self {
            Effect::Allow => "allow",
            Effect::Ask => "ask",
            Effect::Deny => "deny",
        }
    }
}

/// How an argument's value is matched.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "pattern", rename_all = "lowercase")]
pub enum Pattern {
    /// A glob (`*`, `**`, `?`, `[…]`, `{a,b}`); a leading `~/` is the home directory.
    Glob(String),
    /// A regular expression, anchored at both ends.
    Regex(String),
}

/// A rule on one argument: the value at a JSON Pointer into the arguments, matched by a
/// pattern (or, with `outside`, not matched by it: "deny /path outside ~/projects/**").
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ArgumentMatch {
    pub pointer: String,
    pub pattern: Pattern,
    #[serde(default)]
    pub outside: bool,
}

/// One rule. No server: the global default; a server without a tool: that server's default;
/// a tool: a rule for that tool; a tool with an argument match: an argument rule. A rule with
/// a source applies only to requests from that source (none: every source); a rule with a
/// client (its source is then `gateway`) only to that client's requests.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Rule {
    pub id: String,
    pub server: Option<String>,
    pub tool: Option<String>,
    pub argument: Option<ArgumentMatch>,
    pub effect: Effect,
    /// For a rule on a tool: the definition hash it was made for. When the tool's definition
    /// changes, an allow rule with another hash is void (stale).
    pub definition_hash: Option<String>,
    /// Only requests from this source (an app's "always allow" is for apps); none: every
    /// source.
    #[serde(default)]
    pub source: Option<Source>,
    /// Only requests from this client of the gateway (the request's caller: the name the agent
    /// was given, `gatehouse mcp --client NAME`); the source is then `gateway`. None: every
    /// caller of the source.
    #[serde(default)]
    pub client: Option<String>,
}

/// The longest client name a rule can be for.
pub const MAX_CLIENT_NAME: usize = 128;

/// How far a rule's reach is narrowed beyond its layer, widest first: within a layer a narrower
/// rule is the more specific one and decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reach {
    /// Every source.
    Everyone,
    /// One source.
    Source,
    /// One client of the gateway.
    Client,
}

/// The layer a rule belongs to, most specific first (the order of evaluation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Layer {
    Argument,
    Tool,
    Server,
    Global,
}

impl Rule {
    pub fn layer(&self) -> Layer {
        match (&self.server, &self.tool, &self.argument) {
            (_, Some(_), Some(_)) => Layer::Argument,
            (_, Some(_), None) => Layer::Tool,
            (Some(_), None, _) => Layer::Server,
            (None, None, _) => Layer::Global,
        }
    }

    /// How far the rule's reach is narrowed within its layer.
    pub fn reach(&self) -> Reach {
        match (&self.client, &self.source) {
            (Some(_), _) => Reach::Client,
            (None, Some(_)) => Reach::Source,
            (None, None) => Reach::Everyone,
        }
    }

    /// Checks that the rule is well formed: an argument rule names a tool and a server, its
    /// pointer is a JSON Pointer, its pattern compiles; a rule for a client is for the
    /// gateway and names the client plainly.
    pub fn validate(&self) -> Result<()> {
        if let Some(client) = &self.client {
            validate_client(client, self.source)?;
        }
        if self.tool.is_some() && self.server.is_none() {
            return Err(HostError::Validation(
                "a rule for a tool must name its server".into(),
            ));
        }
        if let Some(argument) = &self.argument {
            if self.tool.is_none() {
                return Err(HostError::Validation(
                    "an argument rule must name its tool".into(),
                ));
            }
            if !(argument.pointer.is_empty() || argument.pointer.starts_with('/')) {
                return Err(HostError::Validation(format!(
                    "`{}` is not a JSON Pointer: it must be empty or start with `/` (e.g. `/path`)",
                    argument.pointer
                )));
            }
            argument.pattern.compile()?;
        }
        Ok(())
    }

    /// Whether the rule concerns requests from `source` by `caller` (the client of the
    /// gateway, or the app view, that asked; none for a source with one caller).
    pub(super) fn concerns_caller(&self, source: Source, caller: Option<&str>) -> bool {
        self.source.is_none_or(|s| s == source)
            && self
                .client
                .as_deref()
                .is_none_or(|client| source == Source::Gateway && caller == Some(client))
    }

    /// Whether the rule applies to a request with these arguments. An argument rule whose value
    /// is missing (or not a string, number or boolean) applies only if it denies or asks, so a
    /// request cannot slip past a restriction by leaving the argument out.
    ///
    /// A value that looks like a path is matched as the path it names, both as written out
    /// lexically and as the filesystem resolves it: an allow rule applies only if it holds for
    /// both, a deny or ask rule if it holds for either. A path that climbs above its start or
    /// cannot be resolved is treated like a missing value. Reading the path is filesystem I/O
    /// (see [`crate::fs_path::read`]).
    pub(super) fn applies_to(&self, arguments: Option<&Value>) -> bool {
        let Some(argument) = &self.argument else {
            return true;
        };
        let value = arguments
            .and_then(|a| a.pointer(&argument.pointer))
            .and_then(scalar_text);
        let (Some(text), Ok(matcher)) = (value, argument.pattern.compile()) else {
            return self.effect != Effect::Allow;
        };
        let forms = match fs_path::read(&text) {
            PathValue::NotAPath => vec![text],
            PathValue::Relative(path) => vec![path],
            PathValue::Absolute { lexical, resolved } => vec![lexical, resolved],
            PathValue::Escapes(_) => return self.effect != Effect::Allow,
        };
        let elsewhere = match (&argument.pattern, forms.len()) {
            (Pattern::Glob(glob), 2) => {
                path_glob::at_resolved_start(&path_glob::normalised(&expand_home(glob)))
                    .and_then(|glob| glob_matcher(&glob, &glob).ok())
            }
            _ => None,
        };
        let holds = |form: &String| {
            let inside =
                matcher.is_match(form) || elsewhere.as_ref().is_some_and(|m| m.is_match(form));
            inside != argument.outside
        };
        if self.effect == Effect::Allow {
            forms.iter().all(holds)
        } else {
            forms.iter().any(holds)
        }
    }
}

/// Checks a rule's client: the source is the gateway's, and the name is one a person gave
/// (not empty, no control characters, at most [`MAX_CLIENT_NAME`] characters).
fn validate_client(client: &str, source: Option<Source>) -> Result<()> {
    if source != Some(Source::Gateway) {
        let given = source.map_or("none".to_owned(), |s| format!("`{}`", s.as_str()));
        return Err(HostError::Validation(format!(
            "a rule for a client is for the gateway's requests: its source must be `gateway`, \
             not {given}"
        )));
    }
    if client.trim().is_empty() {
        return Err(HostError::Validation(
            "a rule for a client must name the client".into(),
        ));
    }
    if client.chars().count() > MAX_CLIENT_NAME || client.chars().any(char::is_control) {
        return Err(HostError::Validation(format!(
            "a client's name is at most {MAX_CLIENT_NAME} characters, none of them control \
             characters"
        )));
    }
    Ok(())
}

fn scalar_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// A compiled pattern.
pub(super) enum Matcher {
    Glob(globset::GlobMatcher),
    Regex(regex::Regex),
}

impl Matcher {
    fn is_match(&self, text: &str) -> bool {
        match self {
            Matcher::Glob(glob) => glob.is_match(text),
            Matcher::Regex(regex) => regex.is_match(text),
        }
    }
}

/// `glob` with a leading `~/` made the home directory.
fn expand_home(glob: &str) -> String {
    match (glob.strip_prefix("~/"), dirs::home_dir()) {
        (Some(rest), Some(home)) => format!("{}/{rest}", home.display()),
        _ => glob.to_owned(),
    }
}

/// Compiles `glob` (`written` is how the person wrote it, for the message).
fn glob_matcher(glob: &str, written: &str) -> Result<Matcher> {
    globset::GlobBuilder::new(glob)
        .literal_separator(true)
        .build()
        .map(|g| Matcher::Glob(g.compile_matcher()))
        .map_err(|e| HostError::Validation(format!("invalid glob `{written}`: {e}")))
}

impl Pattern {
    /// The pattern compiled; a glob's `~/` expanded and its fixed start normalised.
    pub(super) fn compile(&self) -> Result<Matcher> {
        match self {
            Pattern::Glob(glob) => glob_matcher(&path_glob::normalised(&expand_home(glob)), glob),
            Pattern::Regex(regex) => regex::Regex::new(&format!("^(?:{regex})$"))
                .map(Matcher::Regex)
                .map_err(|e| HostError::Validation(format!("invalid regex `{regex}`: {e}"))),
        }
    }
}
