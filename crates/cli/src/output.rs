//! Printing results: aligned plain-text tables, pretty JSON, and content blocks (tool results,
//! prompt messages, resource contents) as a person reads them.

use gatehouse_host::HostError;
use gatehouse_host::protocol::{Content, KnownContent, Page, ResourceContents};
use serde::Serialize;

/// Prints a value as pretty JSON on stdout.
pub fn print_json<T: Serialize>(value: &T) -> Result<(), HostError> {
    let text = serde_json::to_string_pretty(value)
        .map_err(|e| HostError::Corrupt(format!("cannot encode JSON output: {e}")))?;
    crate::stdout::line(&crate::terminal_text::json_escaped(&text));
    Ok(())
}

/// The most characters of a table cell shown; a longer one is cut and ends with `…` (`--json`
/// keeps it whole).
pub const MAX_CELL_CHARS: usize = 120;

/// The most characters of a name a server sends (its own, its tools') shown outside a table.
pub const MAX_NAME_CHARS: usize = 120;

/// A server-sent name or title, cut for display.
pub fn name(text: &str) -> String {
    crate::terminal_text::capped(text, MAX_NAME_CHARS).into_owned()
}

/// Prints rows under a header, each column padded to its widest cell, every cell cut to
/// [`MAX_CELL_CHARS`] first: a server's names and descriptions can be of any length.
pub fn print_table<const N: usize>(header: [&str; N], rows: &[[String; N]]) {
    let rows: Vec<[String; N]> = rows
        .iter()
        .map(|row| {
            row.clone()
                .map(|cell| crate::terminal_text::capped(&cell, MAX_CELL_CHARS).into_owned())
        })
        .collect();
    let mut widths = header.map(|h| h.chars().count());
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<&str>| {
        let padded: Vec<String> = cells
            .iter()
            .zip(widths)
            .map(|(cell, width)| format!("{cell:<width$}"))
            .collect();
        say!("{}", padded.join("  ").trim_end());
    };
    line(header.to_vec());
    for row in &rows {
        line(row.iter().map(String::as_str).collect());
    }
}

/// Prints `{"server": …, <key>: [items], "malformed": [raw entries]}`, the shape of every
/// listing's `--json`.
pub fn print_page_json<T: Serialize>(
    server: &str,
    key: &str,
    page: &Page<T>,
) -> Result<(), HostError> {
    print_json(&serde_json::json!({
        "server": server,
        key: page.items,
        "malformed": page.malformed,
    }))
}

/// Prints a table, or a line saying the server has no `what`.
pub fn print_rows<const N: usize>(
    server: &str,
    what: &str,
    header: [&str; N],
    rows: &[[String; N]],
) {
    if rows.is_empty() {
        say!("{server} has no {what}");
    } else {
        print_table(header, rows);
    }
}

/// Warns on stderr about list entries that were kept raw because they were malformed.
pub fn warn_malformed<T>(page: &Page<T>, what: &str) {
    if !page.malformed.is_empty() {
        say_err!(
            "warning: {} malformed {what} entries were skipped (see --json)",
            page.malformed.len()
        );
    }
}

/// The first line of a title or description, for a table cell.
pub fn first_line(text: Option<&String>) -> String {
    text.and_then(|t| t.lines().next())
        .unwrap_or_default()
        .to_owned()
}

/// The decoded size of base64 `data`, without decoding it.
pub fn base64_size(data: &str) -> usize {
    let data = data.trim_end();
    let padding = data.bytes().rev().take_while(|b| *b == b'=').count().min(2);
    (data.len() / 4 * 3 + (data.len() % 4).saturating_sub(1)).saturating_sub(padding)
}

/// A content block as a person reads it: text as is, anything else summarised on one line.
pub fn describe_content(content: &Content) -> String {
    match content {
        Content::Known(KnownContent::Text { text, .. }) => text.clone(),
        Content::Known(KnownContent::Image {
            data, mime_type, ..
        }) => format!("[image: {mime_type}, {} bytes]", base64_size(data)),
        Content::Known(KnownContent::Audio {
            data, mime_type, ..
        }) => format!("[audio: {mime_type}, {} bytes]", base64_size(data)),
        Content::Known(KnownContent::ResourceLink { uri, name, .. }) => {
            format!("[resource link: {uri} ({name})]")
        }
        Content::Known(KnownContent::Resource { resource, .. }) => {
            let header = format!("[resource: {}]", resource.uri);
            match &resource.text {
                Some(text) => format!("{header}\n{text}"),
                None => format!("{header} {}", describe_blob(resource)),
            }
        }
        Content::Unknown(raw) => {
            let kind = raw.get("type").and_then(|t| t.as_str()).unwrap_or("?");
            format!("[unknown content of type `{kind}`: {raw}]")
        }
    }
}

/// A one-line summary of binary resource contents: MIME type and size.
pub fn describe_blob(contents: &ResourceContents) -> String {
    let mime = contents
        .mime_type
        .as_deref()
        .unwrap_or("application/octet-stream");
    let size = contents.blob.as_deref().map_or(0, base64_size);
    format!("({mime}, {size} bytes, binary; see --json)")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn base64_sizes_account_for_padding() {
        for (encoded, size) in [
            ("", 0),
            ("AA==", 1),
            ("AAA=", 2),
            ("AAAA", 3),
            ("AAAAAA==", 4),
        ] {
            assert_eq!(base64_size(encoded), size, "{encoded}");
        }
    }

    #[test]
    fn summarises_what_is_not_text() {
        let image =
            Content::parse(json!({"type": "image", "data": "AAAA", "mimeType": "image/png"}));
        assert_eq!(describe_content(&image), "[image: image/png, 3 bytes]");
        let link = Content::parse(json!({"type": "resource_link", "uri": "a://x", "name": "x"}));
        assert_eq!(describe_content(&link), "[resource link: a://x (x)]");
        let embedded = Content::parse(
            json!({"type": "resource", "resource": {"uri": "a://t", "text": "body"}}),
        );
        assert_eq!(describe_content(&embedded), "[resource: a://t]\nbody");
        let unknown = Content::parse(json!({"type": "hologram"}));
        assert!(describe_content(&unknown).contains("`hologram`"));
    }
}
