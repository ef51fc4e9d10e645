//! `ui/download-file` (SEP-1865 draft, "Requests"): what an app asks to save, read from its
//! `contents` (embedded resources carry their bytes; resource links are read from the app's own
//! server by the command), written into the Downloads folder under a sanitised name, never over
//! an existing file. At most [`MAX_FILES`] files of at most [`MAX_FILE_BYTES`] each.

use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::Value;

use super::file_name;

/// The most files one request may save.
pub const MAX_FILES: usize = 16;
/// The largest file saved, in bytes.
pub const MAX_FILE_BYTES: usize = 64 * 1024 * 1024;
/// How many ` (n)` suffixes are tried before giving up on a free name.
const MAX_SUFFIX: u32 = 999;

/// One thing to save.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// An embedded resource: its name and bytes are in the request.
    Embedded { name: String, bytes: Vec<u8> },
    /// A resource link: the bytes are read from the app's own server.
    Link { uri: String, name: String },
}

/// Why a request cannot be saved.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum DownloadError {
    #[error("ui/download-file: {0}")]
    Invalid(String),
    #[error("the file is larger than {MAX_FILE_BYTES} bytes")]
    TooLarge,
}

/// The items of a `ui/download-file` request's params.
pub fn parse(params: &Value) -> Result<Vec<Item>, DownloadError> {
    let contents = params
        .get("contents")
        .and_then(Value::as_array)
        .ok_or_else(|| DownloadError::Invalid("`contents` must be an array".into()))?;
    if contents.is_empty() {
        return Err(DownloadError::Invalid("`contents` is empty".into()));
    }
    if contents.len() > MAX_FILES {
        return Err(DownloadError::Invalid(format!(
            "at most {MAX_FILES} files may be saved at once"
        )));
    }
    contents.iter().map(item).collect()
}

fn item(content: &Value) -> Result<Item, DownloadError> {
    match content.get("type").and_then(Value::as_str) {
        Some("resource") => {
            let resource = content
                .get("resource")
                .ok_or_else(|| DownloadError::Invalid("a resource without `resource`".into()))?;
            let uri = resource
                .get("uri")
                .and_then(Value::as_str)
                .unwrap_or_default();
            Ok(Item::Embedded {
                name: file_name::from_uri(uri),
                bytes: bytes_of(resource)?,
            })
        }
        Some("resource_link") => {
            let uri = content
                .get("uri")
                .and_then(Value::as_str)
                .ok_or_else(|| DownloadError::Invalid("a resource link without `uri`".into()))?;
            let from_uri = file_name::from_uri(uri);
            let name = if from_uri.is_empty() {
                content
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned()
            } else {
                from_uri
            };
            Ok(Item::Link {
                uri: uri.to_owned(),
                name,
            })
        }
        other => Err(DownloadError::Invalid(format!(
            "cannot save content of type {}",
            other.unwrap_or("(none)")
        ))),
    }
}

/// The bytes of a resource's contents (`text`, or base64 `blob`).
pub fn bytes_of(resource: &Value) -> Result<Vec<u8>, DownloadError> {
    let bytes = if let Some(text) = resource.get("text").and_then(Value::as_str) {
        text.as_bytes().to_vec()
    } else if let Some(blob) = resource.get("blob").and_then(Value::as_str) {
        if blob.len() / 4 * 3 > MAX_FILE_BYTES + 3 {
            return Err(DownloadError::TooLarge);
        }
        STANDARD
            .decode(blob.trim())
            .map_err(|e| DownloadError::Invalid(format!("`blob` is not base64: {e}")))?
    } else {
        return Err(DownloadError::Invalid(
            "a resource with neither `text` nor `blob`".into(),
        ));
    };
    if bytes.len() > MAX_FILE_BYTES {
        return Err(DownloadError::TooLarge);
    }
    Ok(bytes)
}

/// The folder files are saved into: the OS Downloads folder, else `~/Downloads`.
pub fn downloads_dir() -> Option<PathBuf> {
    dirs::download_dir().or_else(|| dirs::home_dir().map(|home| home.join("Downloads")))
}

/// Writes `bytes` into `dir` under the sanitised `name`, or `name (1)`, `name (2)`, … when
/// that exists: an existing file is never replaced (the file is created with `create_new`).
pub fn save(dir: &Path, name: &str, bytes: &[u8]) -> io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let name = file_name::sanitise(name);
    let (stem, extension) = match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => (stem.to_owned(), format!(".{ext}")),
        _ => (name.clone(), String::new()),
    };
    for n in 0..=MAX_SUFFIX {
        let candidate = if n == 0 {
            name.clone()
        } else {
            format!("{stem} ({n}){extension}")
        };
        let path = dir.join(&candidate);
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(mut file) => {
                file.write_all(bytes)?;
                file.sync_all()?;
                return Ok(path);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!("{name} and {MAX_SUFFIX} numbered variants already exist"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn embedded_text_and_blobs_and_links_are_read() {
        let items = parse(&json!({"contents": [
            {"type": "resource", "resource": {"uri": "file:///r/report.txt", "mimeType": "text/plain", "text": "hi"}},
            {"type": "resource", "resource": {"uri": "file:///r/a.bin", "blob": "AAEC"}},
            {"type": "resource_link", "uri": "ui://app/data.csv", "name": "data"},
        ]}))
        .expect("parse");
        assert_eq!(
            items,
            vec![
                Item::Embedded {
                    name: "report.txt".into(),
                    bytes: b"hi".to_vec()
                },
                Item::Embedded {
                    name: "a.bin".into(),
                    bytes: vec![0, 1, 2]
                },
                Item::Link {
                    uri: "ui://app/data.csv".into(),
                    name: "data.csv".into()
                },
            ]
        );
    }

    #[test]
    fn malformed_requests_are_refused() {
        assert!(parse(&json!({})).is_err());
        assert!(parse(&json!({"contents": []})).is_err());
        assert!(parse(&json!({"contents": [{"type": "text", "text": "x"}]})).is_err());
        assert!(
            parse(&json!({"contents": [{"type": "resource", "resource": {"uri": "a"}}]})).is_err()
        );
        assert!(
            parse(&json!({"contents": [{"type": "resource", "resource": {"blob": "%%"}}]}))
                .is_err()
        );
        let many: Vec<Value> = (0..=MAX_FILES)
            .map(|_| json!({"type": "resource", "resource": {"text": "x"}}))
            .collect();
        assert!(parse(&json!({"contents": many})).is_err());
    }

    #[test]
    fn saving_never_overwrites_and_stays_in_the_folder() {
        let dir = tempfile::tempdir().expect("tempdir");
        let first = save(dir.path(), "report.txt", b"one").expect("save");
        let second = save(dir.path(), "report.txt", b"two").expect("save");
        let third = save(dir.path(), "../report.txt", b"three").expect("save");
        assert_eq!(first, dir.path().join("report.txt"));
        assert_eq!(second, dir.path().join("report (1).txt"));
        assert_eq!(third, dir.path().join("_report.txt"));
        assert_eq!(std::fs::read(&first).expect("read"), b"one");
        assert_eq!(std::fs::read(&second).expect("read"), b"two");
        let hidden = save(dir.path(), ".profile", b"x").expect("save");
        assert_eq!(hidden, dir.path().join("profile"));
        let nameless = save(dir.path(), "", b"x").expect("save");
        assert_eq!(nameless, dir.path().join(file_name::FALLBACK_NAME));
        for path in [first, second, third, hidden, nameless] {
            assert_eq!(path.parent(), Some(dir.path()));
        }
    }
}
