//! Reading an agent's config file with a bound: a missing file is absent (`Ok(None)`), a file
//! over [`MAX_CONFIG_BYTES`] is refused before it is read whole, one that is not UTF-8 is an
//! error; and the parse errors of the three parsers (JSON, JSONC, TOML) as a line and column.

use std::io::Read;
use std::path::Path;

use super::model::FileError;

/// The largest config file read: agents' MCP configs are a few KiB; Claude Code's
/// `~/.claude.json` (which also keeps its history per project) can reach a few hundred.
pub const MAX_CONFIG_BYTES: u64 = 4 * 1024 * 1024;

/// The file's text, `Ok(None)` when there is no file.
pub fn read_bounded(path: &Path) -> Result<Option<String>, FileError> {
    // Looked at before it is opened: opening a FIFO would wait for a writer, a device would
    // read forever.
    match std::fs::metadata(path) {
        Ok(metadata) if metadata.is_dir() => {
            return Err(plain("it is a directory, not a file".into()));
        }
        Ok(metadata) if !metadata.is_file() => {
            return Err(plain("it is not a regular file".into()));
        }
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(plain(format!("cannot read it: {e}"))),
    }
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(plain(format!("cannot read it: {e}"))),
    };
    let metadata = file
        .metadata()
        .map_err(|e| plain(format!("cannot read it: {e}")))?;
    if !metadata.is_file() {
        return Err(plain("it is not a regular file".into()));
    }
    let too_large = || {
        plain(format!(
            "it is larger than {} MiB, the most Gatehouse reads of an agent's config",
            MAX_CONFIG_BYTES / (1024 * 1024)
        ))
    };
    if metadata.len() > MAX_CONFIG_BYTES {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    // The file may grow between the stat and the read: read one byte past the bound at most.
    file.take(MAX_CONFIG_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| plain(format!("cannot read it: {e}")))?;
    if bytes.len() as u64 > MAX_CONFIG_BYTES {
        return Err(too_large());
    }
    String::from_utf8(bytes).map(Some).map_err(|e| {
        plain(format!(
            "it is not UTF-8 text (at byte {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

pub fn plain(message: String) -> FileError {
    FileError {
        message,
        line: None,
        column: None,
    }
}

/// Strict JSON (Claude Code, Claude Desktop, Cursor, Gemini CLI, Windsurf, `server.json`).
pub fn parse_json(text: &str) -> Result<serde_json::Value, FileError> {
    serde_json::from_str(text).map_err(|e| FileError {
        message: format!("it is not valid JSON: {e}"),
        line: Some(e.line()),
        column: Some(e.column()),
    })
}

/// JSON with comments and trailing commas (VS Code's `mcp.json`, Zed's `settings.json`).
pub fn parse_jsonc(text: &str) -> Result<serde_json::Value, FileError> {
    let options = jsonc_parser::ParseOptions::default();
    match jsonc_parser::parse_to_serde_value::<Option<serde_json::Value>>(text, &options) {
        Ok(value) => Ok(value.unwrap_or(serde_json::Value::Null)),
        Err(e) => Err(FileError {
            message: format!("it is not valid JSON with comments: {}", e.kind()),
            line: Some(e.line_display()),
            column: Some(e.column_display()),
        }),
    }
}

/// TOML (Codex's `config.toml`), as JSON values.
pub fn parse_toml(text: &str) -> Result<serde_json::Value, FileError> {
    match toml::from_str::<toml::Table>(text) {
        Ok(table) => {
            serde_json::to_value(table).map_err(|e| plain(format!("cannot convert it: {e}")))
        }
        Err(e) => {
            let (line, column) = match e.span() {
                Some(span) => line_column(text, span.start),
                None => (None, None),
            };
            Err(FileError {
                message: format!("it is not valid TOML: {}", e.message()),
                line,
                column,
            })
        }
    }
}

/// 1-based line and column (in characters) of a byte offset.
fn line_column(text: &str, offset: usize) -> (Option<usize>, Option<usize>) {
    let Some(before) = text.get(..offset.min(text.len())) else {
        return (None, None);
    };
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (Some(line), Some(column))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_parser_names_the_line_and_column() {
        let e = parse_json("{\n  \"a\": 1,\n  oops\n}").expect_err("an error");
        assert_eq!((e.line, e.column), (Some(3), Some(3)));
        let e = parse_jsonc("// c\n{\n  \"a\": [1,, 2]\n}").expect_err("an error");
        assert_eq!(e.line, Some(3));
        let e = parse_toml("[mcp_servers.x]\ncommand = \"a\"\nargs = [1\n").expect_err("an error");
        assert_eq!(e.line, Some(3), "{e:?}");
        assert!(parse_jsonc("{ /* ok */ \"a\": 1, }").is_ok());
        assert!(parse_jsonc("").is_ok());
    }

    #[test]
    fn missing_large_and_binary_files() {
        let dir = tempfile::tempdir().expect("no error");
        assert_eq!(read_bounded(&dir.path().join("none.json")), Ok(None));
        let big = dir.path().join("big.json");
        std::fs::write(&big, vec![b' '; (MAX_CONFIG_BYTES + 1) as usize]).expect("no error");
        assert!(
            read_bounded(&big)
                .expect_err("an error")
                .message
                .contains("larger than 4 MiB")
        );
        let exact = dir.path().join("exact.json");
        std::fs::write(&exact, vec![b' '; MAX_CONFIG_BYTES as usize]).expect("no error");
        assert!(read_bounded(&exact).expect("no error").is_some());
        let binary = dir.path().join("bin.json");
        std::fs::write(&binary, [0xff, 0xfe, 0x00]).expect("no error");
        assert!(
            read_bounded(&binary)
                .expect_err("an error")
                .message
                .contains("not UTF-8")
        );
        assert!(
            read_bounded(dir.path())
                .expect_err("an error")
                .message
                .contains("directory")
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_or_a_device_is_refused_without_waiting() {
        let dir = tempfile::tempdir().expect("no error");
        let fifo = dir.path().join("mcp.json");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
        let error = read_bounded(&fifo).expect_err("an error");
        assert_eq!(error.message, "it is not a regular file");
        let device = dir.path().join("settings.json");
        std::os::unix::fs::symlink("/dev/zero", &device).expect("no error");
        let error = read_bounded(&device).expect_err("an error");
        assert_eq!(error.message, "it is not a regular file");
    }

    #[test]
    fn deeply_nested_input_is_an_error_not_a_crash() {
        let lists = "[".repeat(200_000);
        let objects = "{\"a\": ".repeat(200_000);
        assert!(parse_json(&format!("{{\"a\": {lists}")).is_err());
        assert!(parse_jsonc(&format!("{{\"a\": {lists}")).is_err());
        assert!(parse_jsonc(&objects).is_err());
        assert!(parse_toml(&format!("a = {lists}")).is_err());
        assert!(parse_toml(&format!("a = {}", "{b = ".repeat(200_000))).is_err());
    }
}
