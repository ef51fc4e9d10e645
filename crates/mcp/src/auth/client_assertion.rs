//! `private_key_jwt` client authentication (RFC 7523 §2.2, OpenID Connect Core §9): a short-lived
//! JWT signed with the client's key, `iss` and `sub` the client id, `aud` the authorization
//! server's issuer. ES256 only (P-256, PKCS#8 PEM), signed by aws-lc-rs.

use std::time::{SystemTime, UNIX_EPOCH};

use aws_lc_rs::rand::{SecureRandom, SystemRandom};
use aws_lc_rs::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair};
use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use serde_json::json;

use super::AuthError;
use crate::Sensitive;

/// `client_assertion_type` for a JWT client assertion.
pub const ASSERTION_TYPE: &str = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
/// How long an assertion is valid, in seconds.
const LIFETIME: u64 = 300;

/// A signed assertion for `client_id` at `audience`, with the PKCS#8 PEM P-256 key.
pub fn sign(
    client_id: &str,
    audience: &str,
    private_key_pem: &Sensitive<String>,
) -> Result<Sensitive<String>, AuthError> {
    let der = pem_body(private_key_pem.expose())?;
    let key = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &der)
        .map_err(|_| AuthError::Token("the client key is not a P-256 PKCS#8 key".into()))?;
    let rng = SystemRandom::new();
    let mut nonce = [0u8; 16];
    rng.fill(&mut nonce)
        .map_err(|_| AuthError::Token("no randomness for the assertion".into()))?;
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs();
    let header = json!({ "alg": "ES256", "typ": "JWT" });
    let claims = json!({
        "iss": client_id,
        "sub": client_id,
        "aud": audience,
        "iat": now,
        "exp": now + LIFETIME,
        "jti": URL_SAFE_NO_PAD.encode(nonce),
    });
    let signing_input = format!(
        "{}.{}",
        URL_SAFE_NO_PAD.encode(header.to_string()),
        URL_SAFE_NO_PAD.encode(claims.to_string())
    );
    // FIXED signing gives r || s, the JWS form (RFC 7518 §3.4).
    let signature = key
        .sign(&rng, signing_input.as_bytes())
        .map_err(|_| AuthError::Token("signing the client assertion failed".into()))?;
    Ok(Sensitive::new(format!(
        "{signing_input}.{}",
        URL_SAFE_NO_PAD.encode(signature.as_ref())
    )))
}

/// The DER bytes of a PEM document (the base64 between its BEGIN and END lines).
fn pem_body(pem: &str) -> Result<Vec<u8>, AuthError> {
    let body: String = pem
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("-----"))
        .collect();
    STANDARD
        .decode(body)
        .map_err(|_| AuthError::Token("the client key is not PEM".into()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use aws_lc_rs::signature::{ECDSA_P256_SHA256_FIXED, KeyPair, UnparsedPublicKey};

    #[test]
    fn the_assertion_is_an_es256_jwt_that_verifies_with_the_key() {
        let rng = SystemRandom::new();
        let document =
            EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng).expect("a key");
        let pem = format!(
            "-----BEGIN PRIVATE KEY-----\n{}\n-----END PRIVATE KEY-----\n",
            STANDARD.encode(document.as_ref())
        );
        let key = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, document.as_ref())
            .expect("the key parses");
        let jwt = sign("client-1", "http://localhost:4000", &Sensitive::new(pem)).expect("signed");
        let parts: Vec<&str> = jwt.expose().split('.').collect();
        assert_eq!(parts.len(), 3);
        let claims: serde_json::Value =
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[1]).expect("base64"))
                .expect("JSON");
        assert_eq!(claims["iss"], "client-1");
        assert_eq!(claims["sub"], "client-1");
        assert_eq!(claims["aud"], "http://localhost:4000");
        let signature = URL_SAFE_NO_PAD.decode(parts[2]).expect("base64");
        assert_eq!(signature.len(), 64);
        UnparsedPublicKey::new(&ECDSA_P256_SHA256_FIXED, key.public_key().as_ref())
            .verify(format!("{}.{}", parts[0], parts[1]).as_bytes(), &signature)
            .expect("the signature verifies");
        assert!(sign("c", "a", &Sensitive::new("not a key".to_owned())).is_err());
    }
}
