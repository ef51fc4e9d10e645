//! DPoP, sender-constrained tokens (RFC 9449; the MCP DPoP extension, SEP-1932): one ES256 key
//! per authorizer, a fresh proof JWT (`typ` `dpop+jwt`, the public key as `jwk`, `jti`, `htm`,
//! `htu` without query or fragment, `iat`, and `ath` for a resource request) on every token
//! request and every request to the MCP server, and the server-supplied nonces (§8, §9) kept per
//! origin and put into later proofs.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use aws_lc_rs::rand::{SecureRandom, SystemRandom};
use aws_lc_rs::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use url::Url;

use super::AuthError;
use crate::Sensitive;

/// The one algorithm proofs are signed with.
pub const ALGORITHM: &str = "ES256";
/// Most origins whose nonce is kept; past that the nonces are forgotten (and logged).
const MAX_NONCES: usize = 64;

/// A DPoP key and the nonces servers asked for.
pub struct DpopKey {
    pair: EcdsaKeyPair,
    jwk: Value,
    rng: SystemRandom,
    nonces: Mutex<HashMap<String, String>>,
}

impl std::fmt::Debug for DpopKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DpopKey")
            .field("jwk", &self.jwk)
            .finish_non_exhaustive()
    }
}

/// `htu`: the URL without query and fragment (RFC 9449 §4.2).
fn htu(url: &Url) -> String {
    let mut url = url.clone();
    url.set_query(None);
    url.set_fragment(None);
    url.to_string()
}

impl DpopKey {
    /// A new P-256 key.
    pub fn generate() -> Result<Self, AuthError> {
        let failed = || AuthError::Token("cannot create a DPoP key".into());
        let pair =
            EcdsaKeyPair::generate(&ECDSA_P256_SHA256_FIXED_SIGNING).map_err(|_| failed())?;
        // The public key is the uncompressed point: 0x04, then x and y (32 bytes each).
        let point = pair.public_key().as_ref();
        if point.len() != 65 {
            return Err(failed());
        }
        let jwk = json!({
            "kty": "EC",
            "crv": "P-256",
            "x": URL_SAFE_NO_PAD.encode(&point[1..33]),
            "y": URL_SAFE_NO_PAD.encode(&point[33..65]),
        });
        Ok(Self {
            pair,
            jwk,
            rng: SystemRandom::new(),
            nonces: Mutex::new(HashMap::new()),
        })
    }

    fn nonces(&self) -> std::sync::MutexGuard<'_, HashMap<String, String>> {
        self.nonces
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Keeps the nonce a server at `url`'s origin asked for.
    pub fn remember_nonce(&self, url: &Url, nonce: &str) {
        let mut nonces = self.nonces();
        let origin = url.origin().ascii_serialization();
        if !nonces.contains_key(&origin) && nonces.len() >= MAX_NONCES {
            tracing::info!("more than {MAX_NONCES} DPoP nonces; forgetting them");
            nonces.clear();
        }
        nonces.insert(origin, nonce.to_owned());
    }

    /// A fresh proof for `method` on `url`, bound to `access_token` when one is presented.
    pub fn proof(
        &self,
        method: &str,
        url: &Url,
        access_token: Option<&Sensitive<String>>,
    ) -> Result<String, AuthError> {
        let mut jti = [0u8; 16];
        self.rng
            .fill(&mut jti)
            .map_err(|_| AuthError::Token("no randomness for a DPoP proof".into()))?;
        let iat = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_secs();
        let mut claims = json!({
            "jti": URL_SAFE_NO_PAD.encode(jti),
            "htm": method,
            "htu": htu(url),
            "iat": iat,
        });
        if let Some(token) = access_token {
            claims["ath"] =
                json!(URL_SAFE_NO_PAD.encode(Sha256::digest(token.expose().as_bytes())));
        }
        if let Some(nonce) = self.nonces().get(&url.origin().ascii_serialization()) {
            claims["nonce"] = json!(nonce);
        }
        let header = json!({ "typ": "dpop+jwt", "alg": ALGORITHM, "jwk": self.jwk });
        let input = format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(header.to_string()),
            URL_SAFE_NO_PAD.encode(claims.to_string())
        );
        let signature = self
            .pair
            .sign(&self.rng, input.as_bytes())
            .map_err(|_| AuthError::Token("signing a DPoP proof failed".into()))?;
        Ok(format!(
            "{input}.{}",
            URL_SAFE_NO_PAD.encode(signature.as_ref())
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aws_lc_rs::signature::{ECDSA_P256_SHA256_FIXED, UnparsedPublicKey};

    fn part(jwt: &str, n: usize) -> Value {
        let text = jwt.split('.').nth(n).expect("a part");
        serde_json::from_slice(&URL_SAFE_NO_PAD.decode(text).expect("base64")).expect("JSON")
    }

    #[test]
    fn a_proof_is_fresh_signed_and_bound_to_the_request_the_token_and_the_nonce() {
        let key = DpopKey::generate().expect("a key");
        let url = Url::parse("http://localhost:3000/mcp?x=1#f").expect("a URL");
        let token = Sensitive::new("tok".to_owned());
        let first = key.proof("POST", &url, Some(&token)).expect("a proof");
        let second = key.proof("POST", &url, Some(&token)).expect("a proof");
        let (header, claims) = (part(&first, 0), part(&first, 1));
        assert_eq!(header["typ"], "dpop+jwt");
        assert_eq!(header["alg"], "ES256");
        assert!(header["jwk"].get("d").is_none());
        assert_eq!(claims["htm"], "POST");
        assert_eq!(claims["htu"], "http://localhost:3000/mcp");
        assert_eq!(
            claims["ath"],
            URL_SAFE_NO_PAD.encode(Sha256::digest(b"tok")).as_str()
        );
        assert!(claims.get("nonce").is_none());
        assert_ne!(claims["jti"], part(&second, 1)["jti"]);

        let mut signed = first.rsplitn(2, '.');
        let signature = URL_SAFE_NO_PAD
            .decode(signed.next().expect("a signature"))
            .expect("base64");
        UnparsedPublicKey::new(&ECDSA_P256_SHA256_FIXED, key.pair.public_key().as_ref())
            .verify(signed.next().expect("the input").as_bytes(), &signature)
            .expect("the proof verifies");

        key.remember_nonce(&url, "n-1");
        let with_nonce = key.proof("GET", &url, None).expect("a proof");
        assert_eq!(part(&with_nonce, 1)["nonce"], "n-1");
        assert!(part(&with_nonce, 1).get("ath").is_none());
    }
}
