//! Pagination of the gateway's merged lists (tools, prompts, resources, resource templates;
//! 2025-11-25 server/utilities/pagination). The servers' own pages are followed when the lists
//! are merged (each server's whole list is fetched); the merged list is then served in pages of
//! [`page_size`] items, each but the last with an opaque `nextCursor`. The cursor names the list
//! it belongs to and where the next page starts; one the gateway did not give for this list is an
//! invalid-params error (-32602), as the spec says. A list that changes between pages (a server
//! came or went) is announced with `list_changed`, and the agent lists again.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};

use crate::error::{HostError, Result};

/// Items per page unless `GATEHOUSE_GATEWAY_PAGE_SIZE` says otherwise.
pub const PAGE_SIZE: usize = 100;

/// Items per page: [`PAGE_SIZE`], or `GATEHOUSE_GATEWAY_PAGE_SIZE` (at least 1).
pub fn page_size() -> usize {
    std::env::var("GATEHOUSE_GATEWAY_PAGE_SIZE")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .filter(|size| *size > 0)
        .unwrap_or(PAGE_SIZE)
}

/// The page of `items` the request's `cursor` names, under `key` (`tools`, `prompts`, …), with
/// the cursor of the next page when there is one.
pub fn page(key: &str, items: Vec<Value>, params: &Value, size: usize) -> Result<Value> {
    let start = match params.get("cursor") {
        None | Some(Value::Null) => 0,
        Some(cursor) => cursor
            .as_str()
            .and_then(|cursor| start_of(key, cursor))
            .ok_or_else(|| HostError::Validation(format!("invalid cursor for `{key}`")))?,
    };
    if start > items.len() {
        return Err(HostError::Validation(format!(
            "invalid cursor for `{key}`: past the end of the list"
        )));
    }
    let end = start.saturating_add(size).min(items.len());
    let more = end < items.len();
    let page: Vec<Value> = items.into_iter().skip(start).take(end - start).collect();
    let mut result = json!({ key: page });
    if more {
        result["nextCursor"] = json!(cursor_at(key, end));
    }
    Ok(result)
}

fn cursor_at(key: &str, start: usize) -> String {
    URL_SAFE_NO_PAD.encode(format!("gatehouse:{key}:{start}"))
}

fn start_of(key: &str, cursor: &str) -> Option<usize> {
    let decoded = String::from_utf8(URL_SAFE_NO_PAD.decode(cursor).ok()?).ok()?;
    let rest = decoded.strip_prefix("gatehouse:")?.strip_prefix(key)?;
    rest.strip_prefix(':')?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(n: usize) -> Vec<Value> {
        (0..n).map(|i| json!({ "name": i })).collect()
    }

    #[test]
    fn a_list_is_served_in_pages_each_naming_the_next() {
        let first = page("tools", items(5), &json!({}), 2).expect("page 1");
        assert_eq!(first["tools"], json!([{ "name": 0 }, { "name": 1 }]));
        let cursor = first["nextCursor"].clone();
        let second = page("tools", items(5), &json!({ "cursor": cursor }), 2).expect("page 2");
        assert_eq!(second["tools"][0]["name"], 2);
        let third = page(
            "tools",
            items(5),
            &json!({ "cursor": second["nextCursor"] }),
            2,
        )
        .expect("page 3");
        assert_eq!(third["tools"], json!([{ "name": 4 }]));
        assert!(third.get("nextCursor").is_none(), "the last page has none");
        let whole = page("prompts", items(2), &json!({}), 100).expect("one page");
        assert!(whole.get("nextCursor").is_none());
    }

    #[test]
    fn a_cursor_the_gateway_did_not_give_for_this_list_is_invalid() {
        let tools_cursor =
            page("tools", items(5), &json!({}), 2).expect("page")["nextCursor"].clone();
        for bad in [
            json!("not-a-cursor"),
            json!(7),
            tools_cursor.clone(),
            json!(cursor_at("prompts", 99)),
        ] {
            let error =
                page("prompts", items(5), &json!({ "cursor": bad }), 2).expect_err("refused");
            assert!(matches!(error, HostError::Validation(_)), "{error:?}");
        }
        assert!(page("tools", items(5), &json!({ "cursor": tools_cursor }), 2).is_ok());
    }
}
