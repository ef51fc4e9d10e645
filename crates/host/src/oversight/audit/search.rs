//! Full-text search over the audit log, through the `audit_search` FTS5 index (see the
//! `audit_search` migration): a row's server, tool, source, decision, method and redacted
//! `detail` text are indexed, so only what was stored can be found: a redacted secret cannot.
//!
//! The text is taken literally, never as FTS5 query syntax: each whitespace-separated word is
//! quoted, so quotes, parentheses, `AND`, `OR`, `NOT`, `NEAR` and column names are ordinary
//! words and any text is a valid search. A row matches when it holds every word; a word
//! matches whole tokens (`hello-42` is the tokens `hello` and `42`, side by side), and a word
//! ending in `*` also matches longer tokens that start with it (`ech*` finds `echo`). Case and
//! diacritics are ignored (FTS5's default `unicode61` tokenizer).
//!
//! Rows are indexed after they are appended ([`super::indexer`]); a search first indexes every
//! row committed before it, so it finds them all.

use super::AuditLog;
use super::chain::{COLUMNS, StoredRow};
use super::event::AuditRow;
use super::query::DEFAULT_LIMIT;
use crate::error::{HostError, Result};

/// The most words one search may hold.
pub const MAX_WORDS: usize = 32;

impl AuditLog {
    /// The rows holding every word of `text`, newest first, at most `limit` of them (default
    /// 100). Empty text, or more than [`MAX_WORDS`] words, is a validation error.
    pub async fn search(&self, text: &str, limit: Option<u32>) -> Result<Vec<AuditRow>> {
        let query = fts_query(text)?;
        // Rows are indexed off the appending path: the ones not yet indexed are, first.
        self.writer.catch_up().await?;
        let sql = format!(
            "SELECT {COLUMNS} FROM audit_log JOIN ( \
                 SELECT rowid AS hit FROM audit_search WHERE audit_search MATCH ? \
                 ORDER BY rowid DESC LIMIT ? \
             ) ON seq = hit ORDER BY seq DESC"
        );
        let limit = limit.unwrap_or(DEFAULT_LIMIT);
        let rows = sqlx::query(&sql)
            .bind(query)
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|row| StoredRow::from_row(row)?.into_audit_row())
            .collect()
    }
}

/// `text` as an FTS5 query that takes it literally: every word a quoted string (quotes inside
/// doubled), a trailing `*` kept outside the quotes as a prefix search.
fn fts_query(text: &str) -> Result<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.is_empty() {
        return Err(HostError::Validation(
            "the search text is empty: give at least one word".into(),
        ));
    }
    if words.len() > MAX_WORDS {
        return Err(HostError::Validation(format!(
            "the search text has {} words; at most {MAX_WORDS} are allowed",
            words.len()
        )));
    }
    let quoted: Vec<String> = words
        .into_iter()
        .map(|word| match word.strip_suffix('*') {
            Some(stem) if !stem.is_empty() => format!("\"{}\"*", stem.replace('"', "\"\"")),
            _ => format!("\"{}\"", word.replace('"', "\"\"")),
        })
        .collect();
    Ok(quoted.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_so_no_text_is_query_syntax() {
        let cases = [
            ("echo", "\"echo\""),
            ("hello world", "\"hello\" \"world\""),
            ("say \"hi", "\"say\" \"\"\"hi\""),
            ("a AND", "\"a\" \"AND\""),
            ("NEAR(x y)", "\"NEAR(x\" \"y)\""),
            ("server:memory", "\"server:memory\""),
            ("ech*", "\"ech\"*"),
            ("*", "\"*\""),
        ];
        for (text, query) in cases {
            assert_eq!(
                fts_query(text).ok().as_deref(),
                Some(query),
                "`{text}` must be searched literally, whatever FTS5 would make of it"
            );
        }
    }

    #[test]
    fn empty_or_overlong_text_is_refused_with_a_reason() {
        for text in ["", "   \t\n"] {
            assert!(
                matches!(fts_query(text), Err(HostError::Validation(m)) if m.contains("empty")),
                "nothing to search for must say so, not list every row"
            );
        }
        let many = vec!["w"; MAX_WORDS + 1].join(" ");
        assert!(matches!(fts_query(&many), Err(HostError::Validation(_))));
        assert!(fts_query(&vec!["w"; MAX_WORDS].join(" ")).is_ok());
    }
}
