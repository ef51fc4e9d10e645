//! A safe file name for what an app asks to save (`ui/download-file`, SEP-1865 draft): the name
//! comes from the app, so it is reduced to one plain name in the Downloads folder.

/// The longest name kept, in characters.
pub const MAX_NAME_CHARS: usize = 120;

/// The name used when nothing usable is left.
pub const FALLBACK_NAME: &str = "download";

/// Names Windows reserves for devices, whatever their extension.
const RESERVED: &[&str] = &[
    "CON", "PRN", "AUX", "NUL", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8",
    "COM9", "LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9",
];

/// `name` as one file name: no path separators or characters Windows refuses, no control
/// characters, no leading dots or spaces (no hidden file, no `..`), no trailing dots or spaces,
/// at most [`MAX_NAME_CHARS`] characters (the extension kept when it is short), and never empty
/// or a device name.
pub fn sanitise(name: &str) -> String {
    let replaced: String = name
        .chars()
        .filter(|c| !c.is_control() && !is_bidi_control(*c))
        .map(|c| match c {
            '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|' => '_',
            c => c,
        })
        .collect();
    let trimmed = replaced
        .trim_start_matches(|c: char| c == '.' || c.is_whitespace())
        .trim_end_matches(|c: char| c == '.' || c.is_whitespace());
    let mut name = cap(trimmed);
    if name.is_empty() {
        return FALLBACK_NAME.to_owned();
    }
    let stem = name.split('.').next().unwrap_or_default().trim_end();
    if RESERVED.iter().any(|r| r.eq_ignore_ascii_case(stem)) {
        name.insert(0, '_');
    }
    name
}

/// The marks that reorder text (they can make `exe.png` read as `png.exe`).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// At most [`MAX_NAME_CHARS`] characters, keeping an extension of up to 10 characters.
fn cap(name: &str) -> String {
    if name.chars().count() <= MAX_NAME_CHARS {
        return name.to_owned();
    }
    let extension = name
        .rsplit_once('.')
        .map(|(_, ext)| ext)
        .filter(|ext| !ext.is_empty() && ext.chars().count() <= 10);
    match extension {
        Some(ext) => {
            let keep = MAX_NAME_CHARS - ext.chars().count() - 1;
            let stem: String = name.chars().take(keep).collect();
            format!(
                "{}.{ext}",
                stem.trim_end_matches(|c: char| c == '.' || c.is_whitespace())
            )
        }
        None => name.chars().take(MAX_NAME_CHARS).collect(),
    }
}

/// The last segment of a resource URI's path (`file:///x/report.pdf` → `report.pdf`),
/// percent-decoded, before sanitising; empty when there is none.
pub fn from_uri(uri: &str) -> String {
    let path = url::Url::parse(uri)
        .map(|u| u.path().to_owned())
        .unwrap_or_else(|_| uri.to_owned());
    let last = path.rsplit('/').next().unwrap_or_default();
    percent_decode(last)
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2]))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_separators_and_traversal_are_gone() {
        assert_eq!(sanitise("../../etc/passwd"), "_.._etc_passwd");
        assert_eq!(sanitise("..\\..\\boot.ini"), "_.._boot.ini");
        assert_eq!(sanitise("/abs/report.pdf"), "_abs_report.pdf");
        assert_eq!(sanitise(".."), FALLBACK_NAME);
        assert_eq!(sanitise("."), FALLBACK_NAME);
    }

    #[test]
    fn no_hidden_files_control_characters_or_windows_traps() {
        assert_eq!(sanitise(".bashrc"), "bashrc");
        assert_eq!(sanitise("  ...profile"), "profile");
        assert_eq!(sanitise("re\u{0}po\nrt\u{7f}.txt"), "report.txt");
        assert_eq!(
            sanitise("photo\u{202e}gnp.exe"),
            "photognp.exe",
            "bidi overrides cannot disguise the extension"
        );
        assert_eq!(sanitise("what?.txt"), "what_.txt");
        assert_eq!(sanitise("C:evil"), "C_evil");
        assert_eq!(sanitise("trailing. . "), "trailing");
        assert_eq!(sanitise("con.txt"), "_con.txt");
        assert_eq!(sanitise("NUL"), "_NUL");
        assert_eq!(sanitise(""), FALLBACK_NAME);
        assert_eq!(sanitise("\u{1}\u{2}"), FALLBACK_NAME);
        assert_eq!(sanitise("résumé 2026.pdf"), "résumé 2026.pdf");
    }

    #[test]
    fn long_names_are_capped_keeping_the_extension() {
        let long = format!("{}.pdf", "a".repeat(500));
        let capped = sanitise(&long);
        assert_eq!(capped.chars().count(), MAX_NAME_CHARS);
        assert!(capped.ends_with(".pdf"), "{capped}");
        let no_ext = "é".repeat(300);
        assert_eq!(sanitise(&no_ext).chars().count(), MAX_NAME_CHARS);
    }

    #[test]
    fn names_come_from_the_uris_last_segment() {
        assert_eq!(from_uri("file:///tmp/x/report.pdf"), "report.pdf");
        assert_eq!(from_uri("ui://app/some%20file.csv"), "some file.csv");
        assert_eq!(
            sanitise(&from_uri("file:///a/..%2F..%2Fsecret")),
            "_.._secret"
        );
        assert_eq!(from_uri("file:///dir/"), "");
        assert_eq!(from_uri("%zz"), "%zz");
    }
}
