//! Ctrl-C as a future, for commands that stop or cancel on it (`call`, `watch`).

/// Resolves on Ctrl-C; never, if Ctrl-C cannot be listened for. It listens from its first poll:
/// a Ctrl-C before that is not seen, so a loop keeps one (pinned) for its whole life rather
/// than a new one per turn.
pub async fn interrupted() {
    if let Err(e) = tokio::signal::ctrl_c().await {
        tracing::warn!("cannot listen for Ctrl-C: {e}");
        std::future::pending::<()>().await;
    }
}
