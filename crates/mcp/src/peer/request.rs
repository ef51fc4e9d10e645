//! Sending one request and waiting for its answer: the in-flight bound, progress routed to the
//! caller, a timeout that progress may reset and a cap on the whole wait, cancellation when the
//! caller gives up, and re-sending with a new id when a modern response stream breaks.

use std::sync::atomic::Ordering;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};

use super::Peer;
use super::guard::PendingGuard;
use super::options::RequestOptions;
use super::progress::{PROGRESS_QUEUE, Progress, held, progress_key, with_progress_token};
use super::result_type;
use super::state::lock;
use crate::error::{McpError, Result};
use crate::jsonrpc::{self, RequestId};
use crate::transport::Outbound;

impl Peer {
    /// Sends a request and waits for its result, with a plain timeout.
    pub async fn request(
        &self,
        method: &str,
        params: Option<Value>,
        timeout: Duration,
    ) -> Result<Value> {
        self.request_with(method, params, RequestOptions::new(timeout))
            .await
    }

    /// Sends a request with progress reporting, a timeout that progress can reset, and an
    /// overall cap (2025-11-25 basic/utilities/progress; basic/lifecycle "Timeouts"). A broken
    /// response stream re-issues the request with a new id as often as `options.reissue` allows.
    pub async fn request_with(
        &self,
        method: &str,
        params: Option<Value>,
        options: RequestOptions,
    ) -> Result<Value> {
        let started = tokio::time::Instant::now();
        // Only a modern connection (its `_meta` stamped) has streams that break without resuming,
        // so only there is a copy of the params kept for sending again.
        let mut reissues = if self.is_modern() { options.reissue } else { 0 };
        let mut params = params;
        loop {
            let kept = (reissues > 0).then(|| params.clone()).flatten();
            match self.request_once(method, params, &options, started).await {
                Err(e) if reissues > 0 && e.is_broken_stream() => {
                    reissues -= 1;
                    params = kept;
                    tracing::info!("{e}; sending `{method}` again with a new id");
                }
                other => return other,
            }
        }
    }

    async fn request_once(
        &self,
        method: &str,
        params: Option<Value>,
        options: &RequestOptions,
        started: tokio::time::Instant,
    ) -> Result<Value> {
        if let Some(reason) = self.closed_reason() {
            return Err(McpError::Closed { reason });
        }
        let _permit = self
            .inner
            .in_flight
            .acquire()
            .await
            .map_err(|_| self.closed_error())?;
        let id = self.next_id();
        let (tx, mut rx) = oneshot::channel();
        self.lock_pending().insert(id.clone(), tx);
        if let Some(origin) = super::origin::current() {
            lock(&self.inner.origins).insert(id.clone(), origin);
        }
        let (progress_tx, mut progress_rx) = mpsc::channel(PROGRESS_QUEUE);
        let mut sink = options
            .progress
            .clone()
            .map(crate::updates::LatestSink::new);
        let token = options.progress.as_ref().map(|_| progress_key(&json!(id)));
        if let Some(token) = &token {
            lock(&self.inner.progress).insert(token.clone(), progress_tx);
        }
        let mut guard = PendingGuard {
            inner: self.inner.clone(),
            id: id.clone(),
            progress_token: token.clone(),
            // Neither the handshake nor the era probe is cancelled: before the era is settled
            // a legacy server must see nothing but `initialize`.
            cancellable: method != "initialize" && method != "server/discover",
            reason: "the client no longer needs the result",
            armed: true,
        };
        let params = match &token {
            Some(_) => Some(with_progress_token(params, &id)),
            None => params,
        };
        if !self
            .send_request(&id, method, params, options.headers.clone())
            .await
        {
            guard.disarm();
            return Err(self.closed_error());
        }
        let cap = options.max_total.map(|max| started + max);
        let mut deadline = tokio::time::Instant::now() + options.timeout;
        loop {
            let until = cap.map_or(deadline, |cap| cap.min(deadline));
            tokio::select! {
                reply = &mut rx => {
                    guard.disarm();
                    // Updates routed before the response must still reach the caller, in order.
                    if let Some(sink) = &mut sink {
                        while let Ok(update) = progress_rx.try_recv() {
                            if let Some(progress) = Progress::from_params(&update) {
                                sink.offer(progress);
                            }
                        }
                        sink.flush();
                    }
                    return match reply {
                        Ok(Ok(result)) => self.accept(method, result),
                        Ok(Err(failure)) => Err(failure.into_error(method)),
                        Err(_) => Err(self.closed_error()),
                    };
                }
                Some(update) = progress_rx.recv() => {
                    if options.reset_timeout_on_progress {
                        deadline = tokio::time::Instant::now() + options.timeout;
                    }
                    if let (Some(sink), Some(progress)) = (&mut sink, Progress::from_params(&update)) {
                        sink.offer(progress);
                    }
                }
                () = held(&mut sink) => {}
                () = tokio::time::sleep_until(until) => {
                    guard.reason = "timed out";
                    return Err(McpError::Timeout { method: method.to_owned(), timeout: until - started });
                }
            }
        }
    }

    pub(super) fn next_id(&self) -> RequestId {
        RequestId::Number(self.inner.next_id.fetch_add(1, Ordering::Relaxed))
    }

    /// Sends one request with the stamped `_meta`; false if the transport is gone.
    pub(super) async fn send_request(
        &self,
        id: &RequestId,
        method: &str,
        params: Option<Value>,
        headers: Vec<(String, String)>,
    ) -> bool {
        let params = self.with_meta(params);
        self.inner
            .outbound
            .send(Outbound {
                message: jsonrpc::request(id, method, params),
                headers,
                wire: self.wire(),
            })
            .await
            .is_ok()
    }

    /// A modern result whose `resultType` this client does not accept is an invalid response.
    fn accept(&self, method: &str, result: Value) -> Result<Value> {
        match self
            .is_modern()
            .then(|| result_type::problem(method, &result))
            .flatten()
        {
            Some(message) => Err(McpError::InvalidResponse {
                method: method.to_owned(),
                message,
            }),
            None => Ok(result),
        }
    }
}
