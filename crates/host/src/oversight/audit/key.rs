//! The audit chain's key: 32 random bytes, one per data directory, kept only in the OS keyring
//! (see [`super::key_source`]) and in a key file the person chooses to hand to an auditor
//! (`gatehouse audit key export`, checked with `audit verify --key-file`).
//!
//! A keyed row's `hash` is the hex HMAC-SHA256, under this key, of the same canonical JSON an
//! unkeyed row's SHA-256 is taken over (see [`super::chain`]). Without the key, nobody can
//! compute a keyed row's MAC, so rewriting a row (or recomputing the chain from an edited row
//! on) is caught by anyone who holds it.
//!
//! A key is named by its id: the first 8 bytes, in hex, of HMAC-SHA256(key, `gatehouse audit
//! key id`). Rows record the id, so a check can tell a row keyed with a key it lacks from a
//! row that was changed; the id says nothing of the key itself.
//!
//! The key never prints: its `Debug` shows only the id, and its bytes are zeroed on drop.

use std::path::Path;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;
use zeroize::Zeroizing;

use crate::error::{HostError, Result};

/// How many bytes a key has.
pub const KEY_BYTES: usize = 32;

/// What the key id is the MAC of.
const ID_LABEL: &[u8] = b"gatehouse audit key id";

/// The format tag of a key file.
const FILE_FORMAT: &str = "gatehouse-audit-key/1";

/// The key of one data directory's audit chain.
#[derive(Clone)]
pub struct AuditKey {
    bytes: Zeroizing<[u8; KEY_BYTES]>,
    id: String,
}

impl std::fmt::Debug for AuditKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AuditKey({})", self.id)
    }
}

impl AuditKey {
    /// A new key from the operating system's random source.
    pub fn generate() -> Result<Self> {
        let mut bytes = Zeroizing::new([0u8; KEY_BYTES]);
        getrandom::fill(bytes.as_mut()).map_err(|e| {
            HostError::Secrets(format!("cannot draw a new audit key at random: {e}"))
        })?;
        Ok(Self::from_bytes(bytes))
    }

    fn from_bytes(bytes: Zeroizing<[u8; KEY_BYTES]>) -> Self {
        let id = hex(&mac_bytes(&bytes, ID_LABEL)[..8]);
        AuditKey { bytes, id }
    }

    /// The key as kept in the keyring: base64 of its bytes.
    pub fn encode(&self) -> Zeroizing<String> {
        Zeroizing::new(STANDARD.encode(self.bytes.as_ref()))
    }

    /// A key as [`AuditKey::encode`] wrote it.
    pub fn decode(text: &str) -> Result<Self> {
        let decoded = Zeroizing::new(
            STANDARD
                .decode(text.trim())
                .map_err(|_| HostError::Secrets("the audit key is not base64".into()))?,
        );
        let bytes: [u8; KEY_BYTES] = decoded.as_slice().try_into().map_err(|_| {
            HostError::Secrets(format!("the audit key does not have {KEY_BYTES} bytes"))
        })?;
        Ok(Self::from_bytes(Zeroizing::new(bytes)))
    }

    /// The key's id (16 hex digits), which rows keyed with it record.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Hex HMAC-SHA256 of `content` under this key.
    pub fn mac(&self, content: &[u8]) -> String {
        hex(&mac_bytes(&self.bytes, content))
    }

    /// Hex HMAC-SHA256 of the RFC 8785 canonical JSON of `value`.
    pub fn mac_json(&self, value: &impl Serialize) -> String {
        let text = serde_jcs::to_string(value).unwrap_or_default();
        self.mac(text.as_bytes())
    }

    /// Whether `mac` is this key's hex MAC of `content`, compared in constant time.
    pub fn verifies(&self, content: &[u8], mac: &str) -> bool {
        let Some(expected) = unhex(mac) else {
            return false;
        };
        let mut check = keyed(self.bytes.as_ref());
        check.update(content);
        check.verify_slice(&expected).is_ok()
    }
}

type HmacSha256 = Hmac<Sha256>;

/// HMAC-SHA256 under `key`. HMAC takes a key of any length, so the fallback (a zero key of
/// the block size) is never reached; were it, every check would fail, never pass.
fn keyed(key: &[u8]) -> HmacSha256 {
    HmacSha256::new_from_slice(key).unwrap_or_else(|_| {
        <HmacSha256 as hmac::digest::KeyInit>::new(&hmac::digest::Key::<HmacSha256>::default())
    })
}

fn mac_bytes(key: &[u8; KEY_BYTES], content: &[u8]) -> [u8; 32] {
    let mut mac = keyed(key);
    mac.update(content);
    mac.finalize().into_bytes().into()
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        text.push(char::from(DIGITS[usize::from(b >> 4)]));
        text.push(char::from(DIGITS[usize::from(b & 0x0f)]));
    }
    text
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) || !text.is_ascii() {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
        .collect()
}

/// A key file for an auditor: which data directory's chain it keys, its id, and the key.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct KeyFile {
    format: String,
    data_dir_id: String,
    key_id: String,
    key: String,
}

impl AuditKey {
    /// Writes the key to a new file at `path`, readable by its owner only: what a person hands
    /// to an auditor, with a copy of the database, to check the chain elsewhere (`gatehouse
    /// audit verify --key-file`). An existing file is not replaced.
    pub fn write_file(&self, data_dir_id: &str, path: &Path) -> Result<()> {
        let file = KeyFile {
            format: FILE_FORMAT.to_owned(),
            data_dir_id: data_dir_id.to_owned(),
            key_id: self.id.clone(),
            key: self.encode().to_string(),
        };
        let text = Zeroizing::new(
            serde_json::to_string_pretty(&file)
                .map_err(|e| HostError::Secrets(format!("cannot encode the key file: {e}")))?,
        );
        let cannot = |e| HostError::io(format!("cannot write {}", path.display()), e);
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut out = options.open(path).map_err(cannot)?;
        std::io::Write::write_all(&mut out, format!("{}\n", text.as_str()).as_bytes())
            .map_err(cannot)?;
        out.sync_all().map_err(cannot)
    }

    /// The key a file written by [`AuditKey::write_file`] holds, with the data directory id it
    /// names.
    pub fn read_file(path: &Path) -> Result<(Self, String)> {
        let text = Zeroizing::new(
            std::fs::read_to_string(path)
                .map_err(|e| HostError::io(format!("cannot read {}", path.display()), e))?,
        );
        let file: KeyFile = serde_json::from_str(&text).map_err(|_| {
            HostError::Validation(format!("{} is not an audit key file", path.display()))
        })?;
        let key_text = Zeroizing::new(file.key);
        if file.format != FILE_FORMAT {
            return Err(HostError::Validation(format!(
                "{} is not an audit key file of this version",
                path.display()
            )));
        }
        let key = AuditKey::decode(&key_text)?;
        if key.id != file.key_id {
            return Err(HostError::Validation(format!(
                "the key in {} does not match the id it records",
                path.display()
            )));
        }
        Ok((key, file.data_dir_id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_macs_reproducibly_and_differently_from_another() {
        let key = AuditKey::generate().expect("random");
        let other = AuditKey::generate().expect("random");
        let mac = key.mac(b"row");
        assert_eq!(mac.len(), 64, "hex HMAC-SHA256");
        assert_eq!(mac, key.mac(b"row"));
        assert_ne!(mac, other.mac(b"row"), "another key, another MAC");
        assert!(key.verifies(b"row", &mac));
        assert!(!key.verifies(b"rows", &mac));
        assert!(!key.verifies(b"row", "not hex"));
        assert_ne!(key.id(), other.id());
        assert_eq!(key.id().len(), 16);
    }

    #[test]
    fn a_key_round_trips_through_its_encoding_and_never_prints() {
        let key = AuditKey::generate().expect("random");
        let back = AuditKey::decode(&key.encode()).expect("decode");
        assert_eq!(back.id(), key.id());
        assert_eq!(back.mac(b"x"), key.mac(b"x"));
        let shown = format!("{key:?}");
        assert!(
            !shown.contains(key.encode().as_str()),
            "Debug must not show the key: {shown}"
        );
        assert!(AuditKey::decode("c2hvcnQ=").is_err(), "a short key");
    }

    #[test]
    fn a_key_file_round_trips_and_is_refused_when_altered() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("audit.key");
        let key = AuditKey::generate().expect("random");
        key.write_file("dir-1", &path).expect("write");
        let (read, data_dir) = AuditKey::read_file(&path).expect("read");
        assert_eq!((read.id(), data_dir.as_str()), (key.id(), "dir-1"));
        assert!(
            key.write_file("dir-1", &path).is_err(),
            "an existing file is not replaced"
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
            assert_eq!(mode & 0o777, 0o600, "readable by its owner only");
        }
        let text = std::fs::read_to_string(&path).expect("read");
        let other = AuditKey::generate().expect("random");
        std::fs::write(&path, text.replace(key.id(), other.id())).expect("write");
        assert!(AuditKey::read_file(&path).is_err(), "a mismatched id");
    }
}
