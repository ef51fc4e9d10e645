//! The backups `gatehouse connect` keeps of agents' config files are sealed: such a file held
//! the plaintext secrets that import moved to the keyring, and a plain copy in the data
//! directory would keep them on disk after the person was told they were gone. A backup is
//! ChaCha20-Poly1305 under a key kept in the OS keyring (one per data directory, made at the
//! first connect): `GHB1`, a random 12-byte nonce, then the sealed bytes and their tag. Without
//! the keyring nothing is connected (the backup could not be kept) and nothing is restored; a
//! backup that does not open (another key, changed bytes) restores nothing.

use base64::Engine as _;
use ring::aead::{Aad, CHACHA20_POLY1305, LessSafeKey, NONCE_LEN, Nonce, UnboundKey};

use crate::error::{HostError, Result};
use crate::host::Host;
use crate::oversight::audit::key_source::data_dir_id;
use crate::store::secrets::SecretKey;

/// What a sealed backup starts with.
const MAGIC: &[u8; 4] = b"GHB1";
const KEY_LEN: usize = 32;

/// The data directory's backup key, made and kept in the keyring the first time.
pub struct BackupKey([u8; KEY_LEN]);

impl BackupKey {
    /// The key of `host`'s data directory; made (32 bytes from the OS) if there is none yet.
    pub async fn of(host: &Host) -> Result<BackupKey> {
        let key = SecretKey::BackupKey {
            data_dir_id: data_dir_id(host.store().pool()).await?,
        };
        let secrets = host.registry().secrets();
        let engine = base64::engine::general_purpose::STANDARD;
        if let Some(kept) = secrets.get(&key).await? {
            let bytes = engine.decode(kept.expose().as_bytes()).ok();
            return bytes
                .and_then(|b| <[u8; KEY_LEN]>::try_from(b.as_slice()).ok())
                .map(BackupKey)
                .ok_or_else(|| {
                    HostError::Corrupt(
                        "the key of the agents' config backups in the keyring is not one Gatehouse made".into(),
                    )
                });
        }
        let mut bytes = [0u8; KEY_LEN];
        getrandom::fill(&mut bytes)
            .map_err(|e| HostError::Validation(format!("the OS gave no random bytes: {e}")))?;
        secrets
            .set(
                &key,
                "Gatehouse: key of the agents' config backups",
                &engine.encode(bytes),
            )
            .await?;
        Ok(BackupKey(bytes))
    }

    fn aead(&self) -> Result<LessSafeKey> {
        UnboundKey::new(&CHACHA20_POLY1305, &self.0)
            .map(LessSafeKey::new)
            .map_err(|_| HostError::Corrupt("the backup key is not a ChaCha20-Poly1305 key".into()))
    }

    /// `plain` sealed.
    pub fn seal(&self, plain: &[u8]) -> Result<Vec<u8>> {
        let mut nonce = [0u8; NONCE_LEN];
        getrandom::fill(&mut nonce)
            .map_err(|e| HostError::Validation(format!("the OS gave no random bytes: {e}")))?;
        let mut sealed = plain.to_vec();
        self.aead()?
            .seal_in_place_append_tag(
                Nonce::assume_unique_for_key(nonce),
                Aad::from(MAGIC),
                &mut sealed,
            )
            .map_err(|_| HostError::Corrupt("the backup could not be sealed".into()))?;
        let mut out = Vec::with_capacity(MAGIC.len() + NONCE_LEN + sealed.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&nonce);
        out.extend_from_slice(&sealed);
        Ok(out)
    }

    /// The bytes `sealed` holds; an error when they are not a backup this key sealed.
    pub fn open(&self, sealed: &[u8]) -> Result<Vec<u8>> {
        let refused = || {
            HostError::Corrupt(
                "the backup does not open with this data directory's key (it was changed, or made elsewhere); nothing was restored".into(),
            )
        };
        let rest = sealed.strip_prefix(MAGIC.as_slice()).ok_or_else(refused)?;
        if rest.len() < NONCE_LEN {
            return Err(refused());
        }
        let (nonce, body) = rest.split_at(NONCE_LEN);
        let nonce = Nonce::try_assume_unique_for_key(nonce).map_err(|_| refused())?;
        let mut body = body.to_vec();
        let plain = self
            .aead()?
            .open_in_place(nonce, Aad::from(MAGIC), &mut body)
            .map_err(|_| refused())?;
        Ok(plain.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::BackupKey;

    #[test]
    fn a_sealed_backup_opens_with_its_key_only_and_not_once_changed() {
        let key = BackupKey([7u8; 32]);
        let sealed = key
            .seal(b"{\"env\": {\"KEY\": \"sk-plain\"}}")
            .expect("sealed");
        assert!(
            !sealed.windows(8).any(|w| w == b"sk-plain"),
            "no plaintext in the backup"
        );
        assert_eq!(
            key.open(&sealed).expect("opens"),
            b"{\"env\": {\"KEY\": \"sk-plain\"}}"
        );
        let mut changed = sealed.clone();
        let last = changed.len() - 1;
        changed[last] ^= 1;
        assert!(key.open(&changed).is_err());
        assert!(BackupKey([8u8; 32]).open(&sealed).is_err());
        assert!(key.open(b"GHB1short").is_err());
    }
}
