//! Answers a gateway agent sent with the first request of a call, before the server asked for
//! any (`inputResponses` without a `requestState`; 2026-07-28 basic/patterns/mrtr): passed on
//! to a 2026-07-28 server, which uses what it recognises, and recorded on the call's first
//! audit row beside its arguments, so nothing the server is given goes unrecorded. At most
//! [`MAX_BYTES`] of them (as JSON) are taken; more refuses the call.
//!
//! The gateway runs the call inside [`scope`]; the gate's audit record reads [`current`]. A
//! task-local, so the gate's request types need not carry it.

use std::future::Future;

use serde_json::{Map, Value};

/// The most bytes of answers, as JSON, one request may give unasked.
pub const MAX_BYTES: usize = 64 * 1024;

tokio::task_local! {
    static GIVEN: Map<String, Value>;
}

/// Runs `work` with `given` as the answers its call was given unasked (none: as it is).
pub async fn scope<F: Future>(given: Option<Map<String, Value>>, work: F) -> F::Output {
    match given {
        Some(given) => GIVEN.scope(given, work).await,
        None => work.await,
    }
}

/// The answers the call that runs now was given unasked, if any.
pub fn current() -> Option<Map<String, Value>> {
    GIVEN.try_with(Map::clone).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[tokio::test]
    async fn the_answers_are_there_inside_the_scope_only() {
        assert_eq!(current(), None);
        let given = json!({ "user_name": { "action": "accept" } });
        let given = given.as_object().cloned();
        let inside = scope(given.clone(), async { current() }).await;
        assert_eq!(inside, given);
        assert_eq!(scope(None, async { current() }).await, None);
    }
}
