//! Parsing `WWW-Authenticate` (RFC 9110 §11.6.1 challenges, RFC 6750 §3 Bearer parameters): the
//! `resource_metadata` (RFC 9728 §5.1), `scope` and `error` of a 401 or 403 from an MCP server
//! (2025-11-25 basic/authorization, "Protected Resource Metadata Discovery Requirements").
//!
//! Grammar: `challenge = auth-scheme [ 1*SP ( token68 / #auth-param ) ]`,
//! `auth-param = token BWS "=" BWS ( token / quoted-string )`. Several challenges may share one
//! header value, separated by commas, so a comma followed by `token SP` or `token` at the end
//! starts a new challenge, while a comma followed by `token =` continues the parameter list.

/// One challenge: its scheme and its parameters (names lowercased, values unquoted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    pub scheme: String,
    pub params: Vec<(String, String)>,
    /// The token68 form (`Basic abc==`), if the challenge used it.
    pub token68: Option<String>,
}

impl Challenge {
    /// The first value of parameter `name` (case-insensitive).
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What a Bearer challenge tells the client.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BearerChallenge {
    /// Where the protected resource metadata is (RFC 9728 §5.1).
    pub resource_metadata: Option<String>,
    /// The scopes the request needs, as sent (space-separated).
    pub scope: Option<String>,
    /// `invalid_token`, `insufficient_scope`, … (RFC 6750 §3.1).
    pub error: Option<String>,
}

impl BearerChallenge {
    /// The Bearer challenge among all `WWW-Authenticate` values of a response, else the DPoP
    /// one (RFC 9449 §7.1: the same parameters), if any.
    pub fn from_headers<'a>(values: impl IntoIterator<Item = &'a str>) -> Option<Self> {
        let challenges: Vec<Challenge> = values.into_iter().flat_map(parse).collect();
        let of = |scheme: &str| {
            challenges
                .iter()
                .find(|c| c.scheme.eq_ignore_ascii_case(scheme))
        };
        of("bearer").or_else(|| of("dpop")).map(|c| Self {
            resource_metadata: c.param("resource_metadata").map(str::to_owned),
            scope: c.param("scope").map(str::to_owned),
            error: c.param("error").map(str::to_owned),
        })
    }

    /// The challenged scopes, one per entry.
    pub fn scopes(&self) -> Vec<String> {
        self.scope
            .as_deref()
            .map(|s| s.split_ascii_whitespace().map(str::to_owned).collect())
            .unwrap_or_default()
    }

    pub fn is_insufficient_scope(&self) -> bool {
        self.error.as_deref() == Some("insufficient_scope")
    }
}

/// Every challenge in one `WWW-Authenticate` value. Malformed parts are skipped, never fatal.
pub fn parse(header: &str) -> Vec<Challenge> {
    let mut lexer = Lexer {
        bytes: header.as_bytes(),
        at: 0,
    };
    let mut challenges = Vec::new();
    loop {
        lexer.skip_separators();
        if lexer.done() {
            break;
        }
        let Some(scheme) = lexer.token() else {
            // Not a token where a scheme should start: skip to the next comma and go on.
            lexer.skip_past_comma();
            continue;
        };
        let mut challenge = Challenge {
            scheme,
            params: Vec::new(),
            token68: None,
        };
        lexer.skip_spaces();
        // token68 form: a token followed by optional '=' padding, then end or comma.
        if let Some(token68) = lexer.try_token68() {
            challenge.token68 = Some(token68);
        } else {
            while let Some((name, value)) = lexer.try_param() {
                challenge.params.push((name.to_ascii_lowercase(), value));
                lexer.skip_spaces();
                if !lexer.eat(b',') {
                    break;
                }
                lexer.skip_spaces();
                // A comma then `token =` continues; anything else begins the next challenge.
                if !lexer.param_follows() {
                    break;
                }
            }
        }
        challenges.push(challenge);
    }
    challenges
}

struct Lexer<'a> {
    bytes: &'a [u8],
    at: usize,
}

fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

fn is_token68_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~+/".contains(&b)
}

impl Lexer<'_> {
    fn done(&self) -> bool {
        self.at >= self.bytes.len()
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn eat(&mut self, b: u8) -> bool {
        if self.peek() == Some(b) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn skip_spaces(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.at += 1;
        }
    }

    fn skip_separators(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b',')) {
            self.at += 1;
        }
    }

    fn skip_past_comma(&mut self) {
        while let Some(b) = self.peek() {
            self.at += 1;
            if b == b',' {
                break;
            }
        }
    }

    fn token(&mut self) -> Option<String> {
        let start = self.at;
        while self.peek().is_some_and(is_tchar) {
            self.at += 1;
        }
        (self.at > start).then(|| String::from_utf8_lossy(&self.bytes[start..self.at]).into_owned())
    }

    /// `token68` when the rest of this challenge is one (no `=` followed by a value).
    fn try_token68(&mut self) -> Option<String> {
        let start = self.at;
        let mut end = start;
        while self.bytes.get(end).copied().is_some_and(is_token68_char) {
            end += 1;
        }
        if end == start {
            return None;
        }
        while self.bytes.get(end) == Some(&b'=') {
            end += 1;
        }
        let mut after = end;
        while matches!(self.bytes.get(after), Some(b' ' | b'\t')) {
            after += 1;
        }
        if after < self.bytes.len() && self.bytes[after] != b',' {
            return None;
        }
        let text = &self.bytes[start..end];
        self.at = end;
        Some(String::from_utf8_lossy(text).into_owned())
    }

    /// Whether `token BWS =` comes next (a parameter, not a new challenge's scheme).
    fn param_follows(&self) -> bool {
        let mut i = self.at;
        let start = i;
        while self.bytes.get(i).copied().is_some_and(is_tchar) {
            i += 1;
        }
        if i == start {
            return false;
        }
        while matches!(self.bytes.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        self.bytes.get(i) == Some(&b'=')
    }

    fn try_param(&mut self) -> Option<(String, String)> {
        if !self.param_follows() {
            return None;
        }
        let name = self.token()?;
        self.skip_spaces();
        self.eat(b'=');
        self.skip_spaces();
        let value = if self.eat(b'"') {
            self.quoted_rest()
        } else {
            self.token().unwrap_or_default()
        };
        Some((name, value))
    }

    /// The rest of a quoted-string after its opening quote, with `\x` unescaped.
    fn quoted_rest(&mut self) -> String {
        let mut value = Vec::new();
        while let Some(b) = self.peek() {
            self.at += 1;
            match b {
                b'"' => break,
                b'\\' => {
                    if let Some(next) = self.peek() {
                        value.push(next);
                        self.at += 1;
                    }
                }
                other => value.push(other),
            }
        }
        String::from_utf8_lossy(&value).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_parameters_of_a_bearer_challenge() {
        let header = r#"Bearer error="invalid_token", error_description="Missing Authorization header", resource_metadata="http://localhost:3000/.well-known/oauth-protected-resource/mcp""#;
        let c = BearerChallenge::from_headers([header]).expect("a bearer challenge");
        assert_eq!(c.error.as_deref(), Some("invalid_token"));
        assert_eq!(
            c.resource_metadata.as_deref(),
            Some("http://localhost:3000/.well-known/oauth-protected-resource/mcp")
        );
        assert_eq!(c.scope, None);
    }

    #[test]
    fn quoted_strings_keep_commas_and_escapes_and_scopes_split_on_spaces() {
        let header = r#"Bearer scope="mcp:read mcp:write", error_description="a, \"quoted\" text", error=insufficient_scope"#;
        let c = parse(header);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].param("error_description"), Some(r#"a, "quoted" text"#));
        let bearer = BearerChallenge::from_headers([header]).expect("a bearer challenge");
        assert_eq!(bearer.scopes(), vec!["mcp:read", "mcp:write"]);
        assert!(bearer.is_insufficient_scope());
    }

    #[test]
    fn finds_bearer_among_several_challenges_in_one_value() {
        let header = r#"Basic realm="x", Bearer realm="y", scope="a b", DPoP algs="ES256""#;
        let challenges = parse(header);
        let schemes: Vec<_> = challenges.iter().map(|c| c.scheme.as_str()).collect();
        assert_eq!(schemes, ["Basic", "Bearer", "DPoP"]);
        assert_eq!(challenges[1].param("scope"), Some("a b"));
        assert_eq!(challenges[2].param("algs"), Some("ES256"));
    }

    #[test]
    fn scheme_and_parameter_names_are_case_insensitive_and_spaces_around_equals_allowed() {
        let c = BearerChallenge::from_headers([r#"bearer Resource_Metadata = "https://a/b" "#]);
        assert_eq!(
            c.expect("a bearer challenge").resource_metadata.as_deref(),
            Some("https://a/b")
        );
    }

    #[test]
    fn token68_and_bare_schemes_are_understood() {
        let challenges = parse("Negotiate abc+/==, Bearer");
        assert_eq!(challenges.len(), 2);
        assert_eq!(challenges[0].token68.as_deref(), Some("abc+/=="));
        assert_eq!(challenges[1].scheme, "Bearer");
        assert!(challenges[1].params.is_empty());
    }

    #[test]
    fn several_header_values_and_no_bearer() {
        assert_eq!(BearerChallenge::from_headers([r#"Basic realm="x""#]), None);
        let found = BearerChallenge::from_headers([r#"Basic realm="x""#, "Bearer scope=files"]);
        assert_eq!(
            found.expect("a bearer challenge").scope.as_deref(),
            Some("files")
        );
    }

    #[test]
    fn malformed_input_does_not_panic() {
        for header in [
            "",
            ",,,",
            "=",
            "\"",
            "Bearer \"",
            "Bearer a=\"unterminated",
            "Bearer ,=,",
        ] {
            let _ = parse(header);
        }
        let c =
            BearerChallenge::from_headers(["Bearer a=\"unterminated"]).expect("a bearer challenge");
        assert_eq!(c.scope, None);
    }
}
