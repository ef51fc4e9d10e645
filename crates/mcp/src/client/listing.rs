//! Paginated lists (2025-11-25 server/utilities/pagination): [`Client::list_all`], the one
//! cursor loop every list uses, bounded in pages (`ClientOptions::max_pages`, against cursors
//! that loop; 1,000 by default) and in the bytes of all its pages together
//! (`ClientOptions::max_list_bytes`, 32 MiB by default, against a server whose pages never end or
//! are each as large as a message may be). [`Client::list_page`] asks for one page, for a face
//! that shows a list a page at a time ("Load more").

use serde_json::{Value, json};

use super::Client;
use crate::error::{McpError, Result};
use crate::json_size;
use crate::types::Page;

impl Client {
    /// Runs a paginated list method to the end, collecting the items under `key`
    /// (2025-11-25 server/utilities/pagination). `params` are sent with every page.
    ///
    /// A cursor the server no longer takes (`-32602` for a later page) discards the cached pages
    /// and the listing starts over, once (2026-07-28 server/utilities/caching, "Interaction
    /// with Pagination"): a first page served from the cache may hold a cursor of a list that
    /// has since changed.
    pub async fn list_all<T: serde::de::DeserializeOwned>(
        &self,
        method: &str,
        key: &str,
        params: Option<Value>,
    ) -> Result<Page<T>> {
        match self.list_pages(method, key, params.as_ref()).await {
            Err((e, true)) if matches!(&e, McpError::Rpc { error, .. } if error.code == crate::jsonrpc::codes::INVALID_PARAMS) =>
            {
                tracing::info!("the server refused a `{method}` cursor ({e}); listing again");
                self.peer.cache().invalidate(method);
                self.list_pages(method, key, params.as_ref())
                    .await
                    .map_err(|(e, _)| e)
            }
            listed => listed.map_err(|(e, _)| e),
        }
    }

    /// One page of a paginated list method: the items under `key` from the page `cursor` names
    /// (the first when `None`), and the cursor of the next page when there is one. A page is
    /// bounded as every message is; a page served from the cache (2026-07-28) counts as asked.
    pub async fn list_page<T: serde::de::DeserializeOwned>(
        &self,
        method: &str,
        key: &str,
        cursor: Option<&str>,
    ) -> Result<(Page<T>, Option<String>)> {
        let params = cursor.map(|c| json!({ "cursor": c }));
        let raw = match self.peer.cache().get(method, params.as_ref()) {
            Some(hit) => hit,
            None => {
                let raw = self
                    .peer
                    .request(method, params.clone(), self.options.request_timeout)
                    .await?;
                self.peer.cache().put(method, params.as_ref(), &raw);
                raw
            }
        };
        let mut page = Page::default();
        let next = page
            .absorb(raw, key)
            .map_err(|message| McpError::InvalidResponse {
                method: method.to_owned(),
                message,
            })?;
        Ok((page, next))
    }

    /// One run of [`Client::list_all`]; an error says whether it came for a page with a cursor.
    async fn list_pages<T: serde::de::DeserializeOwned>(
        &self,
        method: &str,
        key: &str,
        params: Option<&Value>,
    ) -> std::result::Result<Page<T>, (McpError, bool)> {
        let mut all = Page::default();
        let mut cursor: Option<String> = None;
        let mut bytes = 0usize;
        for pages in 1..=self.options.max_pages {
            let mut page_params = params.cloned().unwrap_or_else(|| json!({}));
            if let (Some(c), Value::Object(map)) = (&cursor, &mut page_params) {
                map.insert("cursor".into(), json!(c));
            }
            let empty = page_params
                .as_object()
                .is_some_and(serde_json::Map::is_empty);
            let page_params = (!empty).then_some(page_params);
            let page = match self.peer.cache().get(method, page_params.as_ref()) {
                Some(hit) => hit,
                None => {
                    let page = self
                        .peer
                        .request(method, page_params.clone(), self.options.request_timeout)
                        .await
                        .map_err(|e| (e, cursor.is_some()))?;
                    self.peer.cache().put(method, page_params.as_ref(), &page);
                    page
                }
            };
            bytes = bytes.saturating_add(json_size::encoded_len(&page));
            if bytes > self.options.max_list_bytes {
                let too_large = McpError::InvalidResponse {
                    method: method.to_owned(),
                    message: format!(
                        "its {pages} pages add up to more than {}, the limit of one listing; \
                         the list is too large or its pages never end",
                        json_size::describe(self.options.max_list_bytes)
                    ),
                };
                return Err((too_large, false));
            }
            cursor = all.absorb(page, key).map_err(|message| {
                let invalid = McpError::InvalidResponse {
                    method: method.to_owned(),
                    message,
                };
                (invalid, false)
            })?;
            if cursor.is_none() {
                return Ok(all);
            }
        }
        let looping = McpError::InvalidResponse {
            method: method.to_owned(),
            message: format!(
                "more than {} pages; the server's cursor may loop",
                self.options.max_pages
            ),
        };
        Err((looping, false))
    }
}
