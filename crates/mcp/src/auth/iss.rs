//! RFC 9207 authorization response issuer identification, as the 2026-07-28 revision requires
//! it (basic/authorization, "Authorization Response Validation"): before the code goes to any
//! token endpoint, a present `iss` must equal the recorded issuer by simple string comparison
//! (no case folding, no default-port elision, no trailing-slash or percent-encoding
//! normalization), whether or not the server advertised
//! `authorization_response_iss_parameter_supported`; an absent `iss` is refused only when it was
//! advertised.

/// Why an authorization response's issuer is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IssProblem {
    #[error(
        "the authorization server advertises `iss` in authorization responses, but this one has none"
    )]
    Missing,
    #[error("the authorization response comes from issuer `{found}`, not `{expected}`")]
    Mismatch { found: String, expected: String },
}

/// Checks the `iss` of an authorization response (already form-decoded) against the issuer
/// recorded before the redirect.
pub fn check(advertised: bool, iss: Option<&str>, expected: &str) -> Result<(), IssProblem> {
    match iss {
        Some(found) if found == expected => Ok(()),
        Some(found) => Err(IssProblem::Mismatch {
            found: found.to_owned(),
            expected: expected.to_owned(),
        }),
        None if advertised => Err(IssProblem::Missing),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ISSUER: &str = "http://localhost:4000";

    #[test]
    fn advertised_and_present_must_match() {
        assert_eq!(check(true, Some(ISSUER), ISSUER), Ok(()));
        assert!(matches!(
            check(true, Some("https://evil.example.com"), ISSUER),
            Err(IssProblem::Mismatch { .. })
        ));
    }

    #[test]
    fn advertised_and_absent_is_refused() {
        assert_eq!(check(true, None, ISSUER), Err(IssProblem::Missing));
    }

    #[test]
    fn not_advertised_but_present_is_still_compared() {
        assert_eq!(check(false, Some(ISSUER), ISSUER), Ok(()));
        assert!(check(false, Some("https://evil.example.com"), ISSUER).is_err());
    }

    #[test]
    fn not_advertised_and_absent_proceeds() {
        assert_eq!(check(false, None, ISSUER), Ok(()));
    }

    #[test]
    fn no_normalization_before_comparing() {
        for variant in [
            "http://localhost:4000/",
            "HTTP://localhost:4000",
            "http://LOCALHOST:4000",
            "http://localhost:4000/%7E",
        ] {
            assert!(check(true, Some(variant), ISSUER).is_err(), "{variant}");
        }
        assert!(check(true, Some("https://a.example"), "https://a.example:443").is_err());
    }
}
