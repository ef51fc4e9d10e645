//! Server text made safe to print on a terminal. A server's tool results, prompt messages,
//! descriptions and errors are its own words, and a control character among them (an escape
//! sequence, a carriage return, a bidirectional override) could recolour or retitle the
//! terminal, move the cursor or make text read differently from what it is (2025-11-25 and
//! 2026-07-28 server/prompts, "Security": validate prompt outputs against injection). Human
//! output shows such characters as `\u{1b}`; JSON output escapes them as `\u001b`.

use std::borrow::Cow;

/// Characters that change how a terminal shows what follows: every control character but
/// newline and tab (C0, DEL, C1), and the bidirectional marks and overrides.
fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

fn replace(text: &str, escape: impl Fn(char) -> String) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unsafe(c) {
            out.push_str(&escape(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` with its unsafe characters shown as `\u{…}`.
pub fn visible(text: &str) -> Cow<'_, str> {
    replace(text, |c| c.escape_unicode().to_string())
}

/// JSON text with its unsafe characters as `\uXXXX` escapes. Outside strings JSON is plain
/// ASCII, so every such character is inside a string, where the escape means the same.
pub fn json_escaped(json: &str) -> Cow<'_, str> {
    replace(json, |c| format!("\\u{:04x}", u32::from(c)))
}

/// `text` cut to at most `max` characters, ending with `…` when it was cut: for a server's
/// names, titles, descriptions and errors, which may be of any length, shown to a person.
pub fn capped(text: &str, max: usize) -> Cow<'_, str> {
    match text.char_indices().nth(max.saturating_sub(1)) {
        Some((at, _)) if text[at..].chars().nth(1).is_some() => {
            Cow::Owned(format!("{}…", &text[..at]))
        }
        _ => Cow::Borrowed(text),
    }
}

/// `println!` for output that may hold server text; a closed stdout ends printing quietly
/// (see [`crate::stdout`]).
macro_rules! say {
    () => { $crate::stdout::line("") };
    ($($arg:tt)*) => { $crate::stdout::line(&$crate::terminal_text::visible(&format!($($arg)*))) };
}

/// `eprintln!` for messages that may hold server text; a closed stderr is ignored.
macro_rules! say_err {
    ($($arg:tt)*) => { $crate::stdout::error_line(&$crate::terminal_text::visible(&format!($($arg)*))) };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_and_marked() {
        assert_eq!(capped("abcdef", 6), "abcdef");
        assert_eq!(
            capped("abcdefg", 6),
            "abcde…",
            "at most 6 characters, the mark included"
        );
        assert_eq!(capped("ééééééé", 3), "éé…", "characters, not bytes");
        assert_eq!(capped("", 3), "");
    }

    #[test]
    fn escape_sequences_and_overrides_are_shown_not_obeyed() {
        assert_eq!(visible("plain\ttext\nline"), "plain\ttext\nline");
        assert_eq!(
            visible("\u{1b}]0;pwned\u{7}red\u{1b}[31m"),
            "\\u{1b}]0;pwned\\u{7}red\\u{1b}[31m",
            "an escape sequence from a server must not reach the terminal as one"
        );
        assert_eq!(
            visible("a\rb"),
            "a\\u{d}b",
            "a carriage return could hide text"
        );
        assert_eq!(visible("x\u{9b}2J"), "x\\u{9b}2J", "C1 CSI too");
        assert_eq!(visible("abc\u{202E}fed"), "abc\\u{202e}fed");
        let json = serde_json::to_string(&serde_json::json!({"t": "a\u{9b}b\u{202e}"}))
            .unwrap_or_default();
        let escaped = json_escaped(&json);
        assert_eq!(escaped, r#"{"t":"a\u009bb\u202e"}"#);
        let back: serde_json::Value = serde_json::from_str(&escaped).unwrap_or_default();
        assert_eq!(
            back["t"], "a\u{9b}b\u{202e}",
            "the escaped JSON means the same"
        );
    }
}
