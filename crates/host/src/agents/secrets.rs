//! Which values in an agent's config are secrets: import (later) moves them to the keyring, and
//! `gatehouse agents` counts those sitting in plaintext (names only, never values).
//!
//! A value is secret when the format marks it so (VS Code `password` inputs, registry
//! `isSecret`), when its env or header name looks like a secret's, or when the value itself looks
//! like a token. Decisions on the near misses, each tested below:
//! - A value that is only `${…}` references (and an auth scheme word such as `Bearer `) is never
//!   a secret: the secret lives in the person's environment, not in the file.
//! - Under a secret-looking name, a value that is a number or a boolean word (`KEY=1`,
//!   `USE_TOKEN=true`) is a switch, not a secret; a path (`/…`, `~/…`, `./…`, `C:\…`) names where
//!   a secret is kept (`GOOGLE_APPLICATION_CREDENTIALS`), it is not one. Names with `PUBLIC` in
//!   them (`SSH_PUBLIC_KEY`) are not secret.
//! - By value alone: a known token prefix followed by at least 16 token characters (so
//!   `sk-learn` is not one), or a long high-entropy string: at least [`MIN_ENTROPY_LEN`]
//!   characters of base64/base64url alphabet, at least two of lower case, upper case and digits,
//!   and at least [`MIN_ENTROPY_BITS`] bits of Shannon entropy per character. Random base62 or
//!   base64 tokens score 4.5 and more; model and package names (`claude-3-5-sonnet-20241022`),
//!   UUIDs and hex digests score under 4.0, so a UUID or a bare hex key is secret only under a
//!   secret-looking name.

use serde::Serialize;

use super::references;

/// Why a value counts as a secret.
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SecretReason {
    /// The format marks it secret.
    Marked,
    /// Its env or header name looks like a secret's.
    Name,
    /// It starts like a known kind of token.
    TokenPrefix,
    /// It is a long string of high entropy.
    HighEntropy,
}

/// The shortest string the entropy rule looks at.
pub const MIN_ENTROPY_LEN: usize = 24;
/// Bits of Shannon entropy per character from which a long string counts as a token.
pub const MIN_ENTROPY_BITS: f64 = 4.2;
/// Token characters a known prefix must be followed by.
const MIN_AFTER_PREFIX: usize = 16;

/// Known token prefixes (OpenAI and Anthropic `sk-`, GitHub, Slack, GitLab, AWS access key ids,
/// Google API keys, Hugging Face, npm, PyPI, Stripe, Gatehouse's own client tokens).
const TOKEN_PREFIXES: &[&str] = &[
    "sk-ant-",
    "sk-",
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "xoxb-",
    "xoxp-",
    "xoxa-",
    "xoxe-",
    "xapp-",
    "glpat-",
    "AKIA",
    "ASIA",
    "AIza",
    "hf_",
    "npm_",
    "pypi-",
    "sk_live_",
    "rk_live_",
    "sk_test_",
    "ghc_",
];

/// Whether a value is a secret: `name` is its env or header name, if it has one; `marked` is
/// whether the format marks it secret.
pub fn classify(name: Option<&str>, value: &str, marked: bool) -> Option<SecretReason> {
    // `${VAR:-default}`: the default is written in the file, so it may be a plaintext secret.
    for reference in references::find(value) {
        if let references::Reference::Env {
            default: Some(default),
            ..
        } = reference
            && let Some(reason) = classify(name, &default, marked)
        {
            return Some(reason);
        }
    }
    let literal = strip_scheme(references::literal_part(value).trim()).to_owned();
    if literal.is_empty() || is_bare_reference(&literal) {
        return None;
    }
    if marked {
        return Some(SecretReason::Marked);
    }
    if name.is_some_and(name_looks_secret) && !is_switch_or_path(&literal) {
        return Some(SecretReason::Name);
    }
    value_looks_secret(&literal)
}

/// `$NAME` alone (Gemini CLI expands it): a reference, not a value.
fn is_bare_reference(value: &str) -> bool {
    value.strip_prefix('$').is_some_and(|name| {
        !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    })
}

/// Whether an env or header name looks like a secret's (`*_KEY`, `*_TOKEN`, `*SECRET*`,
/// `*PASSWORD*`, `Authorization`, `X-API-Key`, ...). Case and `-`/`_` do not matter.
pub fn name_looks_secret(name: &str) -> bool {
    let upper = name.trim().to_ascii_uppercase().replace('-', "_");
    if upper.contains("PUBLIC") {
        return false;
    }
    const EXACT: &[&str] = &[
        "AUTHORIZATION",
        "PROXY_AUTHORIZATION",
        "COOKIE",
        "KEY",
        "TOKEN",
        "PAT",
        "APIKEY",
        "API_KEY",
        "X_API_KEY",
        "X_AUTH_TOKEN",
        "AUTH",
    ];
    const SUFFIXES: &[&str] = &["_KEY", "_TOKEN", "_PAT", "_APIKEY", "_AUTH"];
    const INSIDE: &[&str] = &[
        "SECRET",
        "PASSWORD",
        "PASSWD",
        "API_KEY",
        "APIKEY",
        "ACCESS_KEY",
        "PRIVATE_KEY",
        "AUTH_TOKEN",
        "CREDENTIAL",
    ];
    EXACT.contains(&upper.as_str())
        || SUFFIXES.iter().any(|s| upper.ends_with(s))
        || INSIDE.iter().any(|s| upper.contains(s))
}

/// Whether a value, by itself, looks like a token.
pub fn value_looks_secret(value: &str) -> Option<SecretReason> {
    let value = strip_scheme(value.trim());
    for prefix in TOKEN_PREFIXES {
        if let Some(rest) = value.strip_prefix(prefix) {
            let run = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
                .count();
            if run >= MIN_AFTER_PREFIX {
                return Some(SecretReason::TokenPrefix);
            }
        }
    }
    if high_entropy(value) {
        return Some(SecretReason::HighEntropy);
    }
    None
}

/// Bits of Shannon entropy per character.
pub fn entropy(text: &str) -> f64 {
    let mut counts = std::collections::HashMap::new();
    let mut total = 0usize;
    for c in text.chars() {
        *counts.entry(c).or_insert(0usize) += 1;
        total += 1;
    }
    if total == 0 {
        return 0.0;
    }
    let n = total as f64;
    counts
        .values()
        .map(|&k| {
            let p = k as f64 / n;
            -p * p.log2()
        })
        .sum()
}

fn high_entropy(value: &str) -> bool {
    if value.chars().count() < MIN_ENTROPY_LEN || is_switch_or_path(value) {
        return false;
    }
    if !value
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=' | '-' | '_' | '.' | '~'))
    {
        return false;
    }
    let classes = [
        value.chars().any(|c| c.is_ascii_lowercase()),
        value.chars().any(|c| c.is_ascii_uppercase()),
        value.chars().any(|c| c.is_ascii_digit()),
    ];
    classes.iter().filter(|&&c| c).count() >= 2 && entropy(value) >= MIN_ENTROPY_BITS
}

/// `Bearer abc` → `abc`: the scheme word of an `Authorization` value is not part of the secret.
fn strip_scheme(value: &str) -> &str {
    let value = value.trim();
    let (word, rest) = value.split_once(char::is_whitespace).unwrap_or((value, ""));
    if ["bearer", "basic", "token"].contains(&word.to_ascii_lowercase().as_str()) {
        rest.trim_start()
    } else {
        value
    }
}

fn is_switch_or_path(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    let switch = value
        .chars()
        .all(|c| c.is_ascii_digit() || c == '.' || c == '-')
        || matches!(
            lower.as_str(),
            "true" | "false" | "yes" | "no" | "on" | "off" | "none" | "null"
        );
    let bytes = value.as_bytes();
    let windows_drive = bytes.len() > 2
        && bytes[0].is_ascii_alphabetic()
        && bytes[1] == b':'
        && (bytes[2] == b'\\' || bytes[2] == b'/');
    let path = value.starts_with('/')
        || value.starts_with("~/")
        || value.starts_with("./")
        || value.starts_with("../")
        || lower.starts_with("file://")
        || windows_drive;
    switch || path
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_format_marking_makes_a_secret() {
        assert_eq!(
            classify(Some("REGION"), "eu-west", true),
            Some(SecretReason::Marked)
        );
        // ... but not a reference, marked or not.
        assert_eq!(classify(Some("TOKEN"), "${input:token}", true), None);
    }

    #[test]
    fn secret_looking_names() {
        for name in [
            "OPENAI_API_KEY",
            "GITHUB_TOKEN",
            "CLIENT_SECRET",
            "DB_PASSWORD",
            "Authorization",
            "X-API-Key",
            "x-api-key",
            "api-key",
            "SLACK_BOT_TOKEN",
            "MY_SECRET_THING",
            "AWS_SECRET_ACCESS_KEY",
            "GITLAB_PAT",
            "Cookie",
        ] {
            assert!(name_looks_secret(name), "{name}");
            assert_eq!(
                classify(Some(name), "hunter2", false),
                Some(SecretReason::Name),
                "{name}"
            );
        }
        for name in [
            "PATH",
            "HOME",
            "MAX_TOKENS",
            "TOKENIZER",
            "KEY_PATH",
            "SSH_PUBLIC_KEY",
            "LOG_LEVEL",
            "Content-Type",
            "Accept",
        ] {
            assert!(!name_looks_secret(name), "{name}");
        }
    }

    #[test]
    fn switches_and_paths_under_secret_names_are_not_secrets() {
        assert_eq!(classify(Some("KEY"), "1", false), None);
        assert_eq!(classify(Some("USE_TOKEN"), "true", false), None);
        assert_eq!(
            classify(Some("PRIVATE_KEY"), "~/.ssh/id_ed25519", false),
            None
        );
        assert_eq!(
            classify(
                Some("GOOGLE_APPLICATION_CREDENTIALS"),
                "/home/me/sa.json",
                false
            ),
            None
        );
        assert_eq!(classify(Some("API_KEY"), "C:\\keys\\api.txt", false), None);
        // A short password is still one.
        assert_eq!(
            classify(Some("DB_PASSWORD"), "pw", false),
            Some(SecretReason::Name)
        );
    }

    #[test]
    fn references_are_never_secrets() {
        assert_eq!(classify(Some("API_KEY"), "${API_KEY}", false), None);
        assert_eq!(classify(Some("API_KEY"), "${API_KEY:-}", false), None);
        assert_eq!(
            classify(Some("Authorization"), "Bearer ${env:TOKEN}", false),
            None
        );
        assert_eq!(classify(None, "${input:pat}", false), None);
        assert_eq!(classify(Some("API_KEY"), "$API_KEY", false), None);
        // ... but a default written in the file is a value.
        assert_eq!(
            classify(Some("API_KEY"), "${API_KEY:-hunter2}", false),
            Some(SecretReason::Name)
        );
        assert_eq!(classify(Some("PORT"), "${PORT:-8080}", false), None);
        // A literal token next to a reference is still a secret.
        assert_eq!(
            classify(
                Some("Authorization"),
                "Bearer ghp_aaaaBBBBccccDDDDeeeeFFFF0000 ${X}",
                false
            ),
            Some(SecretReason::Name)
        );
    }

    #[test]
    fn known_token_prefixes() {
        for token in [
            "sk-proj-Abc123Def456Ghi789Jkl0",
            "sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAA",
            "ghp_0123456789abcdefABCDEF0123456789abcd",
            "gho_0123456789abcdefABCDEF",
            "github_pat_11AAAAAAA0123456789_abcdef",
            "xoxb-1234567890-0987654321-abcdefABCDEF",
            "xoxp-1234567890-0987654321-abcdefABCDEF",
            "glpat-abcdefghij0123456789",
            "AKIAIOSFODNN7EXAMPLE",
            "Bearer ghp_0123456789abcdefABCDEF0123456789abcd",
        ] {
            assert_eq!(
                value_looks_secret(token),
                Some(SecretReason::TokenPrefix),
                "{token}"
            );
            assert!(classify(Some("NOTE"), token, false).is_some(), "{token}");
        }
        // A prefix with too little after it is a word, not a token.
        for near in ["sk-learn", "sk-", "AKIA", "ghp_short", "xoxb-1"] {
            assert_eq!(value_looks_secret(near), None, "{near}");
        }
    }

    #[test]
    fn long_high_entropy_strings_and_the_threshold() {
        let random = "KiSHW8pmBulyjmx6P7qwOc9FQ2NSVPAW"; // 32 chars base62, ~4.75 bits
        assert!(entropy(random) >= MIN_ENTROPY_BITS);
        assert_eq!(value_looks_secret(random), Some(SecretReason::HighEntropy));
        // One character short of the length bound: not looked at.
        assert_eq!(value_looks_secret(&random[..MIN_ENTROPY_LEN - 1]), None);
        assert_eq!(
            value_looks_secret(&random[..MIN_ENTROPY_LEN]),
            Some(SecretReason::HighEntropy)
        );
        for near in [
            "claude-3-5-sonnet-20241022",               // a model name, 3.85 bits
            "efa9de4d-966d-4af2-90d1-dffc014c3aa8",     // a UUID, 3.64 bits
            "e3ad690a90b5f644e56ac0eacfdec9a263de6e53", // a hex digest, under 4
            "abcdefghijklmnopqrstuvwxyz",               // high entropy, one class of letters
            "@modelcontextprotocol/server-everything",  // a package name
            "https://api.example.com/v1/mcp",           // a URL
            "/usr/local/lib/node_modules/some-server/dist/index.js",
        ] {
            assert_eq!(value_looks_secret(near), None, "{near}");
        }
        // A UUID under a secret-looking name is a secret.
        assert_eq!(
            classify(
                Some("API_KEY"),
                "efa9de4d-966d-4af2-90d1-dffc014c3aa8",
                false
            ),
            Some(SecretReason::Name)
        );
    }
}
