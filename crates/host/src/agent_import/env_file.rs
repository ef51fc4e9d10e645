//! An `envFile` (VS Code, Cursor): `NAME=value` lines the agent loads into a server's
//! environment, read at import so that its secrets go to the keyring like any other value.
//! Blank lines and `#` comments are skipped, `export ` is allowed, and a value in matching
//! single or double quotes has them taken off. The file is read with the same bound as the
//! agents' own files.

use std::path::Path;

use crate::agents::model::Setting;
use crate::agents::read::read_bounded;

/// The file's variables, in order; a line that is not `NAME=value` is an error naming it.
pub fn read(path: &Path) -> Result<Vec<Setting>, String> {
    let text = match read_bounded(path) {
        Ok(Some(text)) => text,
        Ok(None) => return Err("it does not exist".into()),
        Err(e) => return Err(e.message),
    };
    parse(&text)
}

pub fn parse(text: &str) -> Result<Vec<Setting>, String> {
    let mut settings = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let line = line.strip_prefix("export ").unwrap_or(line);
        let Some((name, value)) = line.split_once('=') else {
            return Err(format!("line {} is not NAME=value", n + 1));
        };
        let name = name.trim();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(format!(
                "line {} does not start with a variable name",
                n + 1
            ));
        }
        let value = value.trim();
        let unquoted = [('"', '"'), ('\'', '\'')]
            .iter()
            .find_map(|(open, close)| {
                value
                    .strip_prefix(*open)
                    .and_then(|v| v.strip_suffix(*close))
            })
            .unwrap_or(value);
        settings.push(Setting::plain(name, unquoted));
    }
    Ok(settings)
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn an_env_file_gives_its_variables_without_quotes_or_comments() {
        let settings = parse("# keys\nexport A=1\nB=\"two words\"\n\nC='x=y'\n").expect("parses");
        let pairs: Vec<(&str, &str)> = settings
            .iter()
            .map(|s| (s.name.as_str(), s.value.as_deref().unwrap_or_default()))
            .collect();
        assert_eq!(pairs, [("A", "1"), ("B", "two words"), ("C", "x=y")]);
        assert!(
            parse("no equals sign")
                .expect_err("refused")
                .contains("line 1")
        );
    }
}
