//! The tasks answering the server's own requests (sampling, elicitation, roots), and their
//! withdrawal: a server's `notifications/cancelled` naming one of its requests still being
//! answered (2025-11-25 basic/utilities/cancellation) tells the handler through a
//! [`Withdrawal`], and no response is sent for it, whatever the handler answers. The route owns
//! the tasks, so they end with the connection.
//!
//! Each request goes to `Handler::on_withdrawable_request`, whose default answers with
//! `Handler::on_request` and drops that answer at once on a withdrawal. A `ping` is answered
//! here, without the handler (only legacy servers send requests at all).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::{Value, json};
use tokio::sync::oneshot;
use tokio::task::JoinSet;

use super::handler::Handler;
use super::origin::{self, Origin};
use super::outlet::Outlet;
use super::withdrawal::Withdrawal;
use crate::jsonrpc::{self, RequestId};

/// How many of the server's requests may be answered at once. Each waits on the handler, which
/// may wait on a person; more than this are refused at once with an error, and a log line.
pub const MAX_SERVER_REQUESTS: usize = 32;

/// Tells the task answering one request that the server withdrew it.
struct Withdraw {
    reason: oneshot::Sender<String>,
    withdrawn: Arc<AtomicBool>,
}

/// One request of the server's.
pub(super) struct Asked {
    pub(super) id: RequestId,
    pub(super) method: String,
    pub(super) params: Option<Value>,
}

/// The requests being answered, each with what withdraws it.
#[derive(Default)]
pub(super) struct Answering {
    tasks: JoinSet<RequestId>,
    withdrawals: HashMap<RequestId, Withdraw>,
}

impl Answering {
    pub(super) fn len(&self) -> usize {
        self.tasks.len()
    }

    pub(super) fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }

    /// Waits for a request to be answered (or withdrawn) and forgets it; pending while none is
    /// being answered.
    pub(super) async fn next_done(&mut self) {
        match self.tasks.join_next().await {
            Some(Ok(id)) => {
                self.withdrawals.remove(&id);
            }
            Some(Err(e)) => tracing::warn!("a task answering the server ended abnormally: {e}"),
            None => std::future::pending().await,
        }
    }

    /// Answers the server's request with `handler`, inside `origin` (that of the request it
    /// serves, when known), and sends the response, unless the server withdraws the request
    /// first. `ping` is answered here.
    pub(super) fn answer(
        &mut self,
        asked: Asked,
        handler: Arc<dyn Handler>,
        outbound: Outlet,
        origin: Option<Origin>,
    ) {
        let Asked { id, method, params } = asked;
        let (reason, withdrawal) = oneshot::channel();
        let withdrawn = Arc::new(AtomicBool::new(false));
        self.withdrawals.insert(
            id.clone(),
            Withdraw {
                reason,
                withdrawn: withdrawn.clone(),
            },
        );
        self.tasks.spawn(async move {
            let reply = if method == "ping" {
                Ok(json!({}))
            } else {
                let withdrawal = Withdrawal(Some(withdrawal));
                let answer = handler.on_withdrawable_request(method, params, withdrawal);
                origin::within(origin, answer).await
            };
            if withdrawn.load(Ordering::SeqCst) {
                tracing::debug!("request {id} was withdrawn by the server; no response is sent");
                return id;
            }
            let message = match reply {
                Ok(result) => jsonrpc::response(&id, result),
                Err(error) => jsonrpc::error_response(&id, &error),
            };
            let _ = outbound.send(message.into()).await;
            id
        });
    }

    /// Withdraws the request a server's `notifications/cancelled` (`params`) names, if it is
    /// being answered; says whether it was.
    pub(super) fn withdraw(&mut self, params: Option<&Value>) -> bool {
        let Some(id) = params
            .and_then(|p| p.get("requestId"))
            .and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok())
        else {
            return false;
        };
        let Some(withdraw) = self.withdrawals.remove(&id) else {
            return false;
        };
        let reason = params
            .and_then(|p| p.get("reason"))
            .and_then(Value::as_str)
            .unwrap_or("no reason given")
            .to_owned();
        withdraw.withdrawn.store(true, Ordering::SeqCst);
        let _ = withdraw.reason.send(reason);
        true
    }
}
