//! Reading an HTTP response body with a byte limit, for the transports and the authorization
//! requests alike.

/// Reads a whole body, refusing one over `limit` bytes.
pub(crate) async fn bounded_body(
    response: reqwest::Response,
    limit: usize,
) -> std::result::Result<Vec<u8>, String> {
    use futures_util::StreamExt;
    let mut body = Vec::new();
    let mut chunks = response.bytes_stream();
    while let Some(chunk) = chunks.next().await {
        let chunk = chunk.map_err(|e| format!("reading the response failed: {e}"))?;
        if body.len() + chunk.len() > limit {
            return Err(format!(
                "the response is larger than the {limit}-byte limit"
            ));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}
