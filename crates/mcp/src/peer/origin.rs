//! Whose request a server's request serves, where the transport can tell. Over Streamable HTTP
//! a server sends the requests it makes while handling one of the client's on that request's
//! own response stream (2025-11-25 basic/transports, "Sending Messages to the Server": the
//! server MAY send requests "before sending the JSON-RPC response", and they "SHOULD relate to
//! the originating client request"). The caller marks a request with an [`Origin`] by sending
//! it inside [`scope`]; the peer keeps the origin while the request is pending, and answers a
//! server's request that arrived on that request's stream inside the same scope, so the
//! handler finds it with [`current`]. Over stdio and the legacy SSE transport nothing relates a
//! server's request to one of the client's, so none has an origin there.
//!
//! The origin is opaque to the peer: whatever the caller wants the handler to know (the host
//! puts the agent whose call it is there).

use std::any::Any;
use std::future::Future;
use std::sync::Arc;

/// What the caller of a request wants the handler of a related server request to know.
pub type Origin = Arc<dyn Any + Send + Sync>;

tokio::task_local! {
    static ORIGIN: Origin;
}

/// Runs `work` with `origin` as the origin of the requests it sends.
pub fn scope<F: Future>(
    origin: Origin,
    work: F,
) -> tokio::task::futures::TaskLocalFuture<Origin, F> {
    ORIGIN.scope(origin, work)
}

/// The origin of the request being sent, or of the one a server's request arrived with.
pub fn current() -> Option<Origin> {
    ORIGIN.try_with(Arc::clone).ok()
}

/// Runs `work` inside `origin` when there is one.
pub(super) async fn within<F: Future>(origin: Option<Origin>, work: F) -> F::Output {
    match origin {
        Some(origin) => scope(origin, work).await,
        None => work.await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_origin_is_there_inside_its_scope_only() {
        assert!(current().is_none());
        let origin: Origin = Arc::new("agent-a".to_owned());
        let seen = scope(origin, async { current() }).await;
        let seen = seen.expect("inside the scope");
        assert_eq!(
            seen.downcast_ref::<String>().map(String::as_str),
            Some("agent-a")
        );
        assert!(within(None, async { current() }).await.is_none());
    }
}
