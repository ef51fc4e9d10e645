//! The 2026-07-28 agents' calls parked while a server's request waits for their input
//! (basic/patterns/mrtr; `gateway::input_required`): engine-wide, held by the gate, since the
//! retry may come on another connection (over HTTP each POST is a session of its own), and kept
//! by the `requestState` the agent was given.
//!
//! That state is attacker-controlled ("Server Requirements", 4 and 5): it is
//! `base64url(payload) "." base64url(HMAC-SHA256(payload))` under a random key made for this
//! engine and never stored, the payload naming the parked call, the client it was given to, the
//! request (its method and the tool, prompt or resource it names) and an expiry. A state that
//! fails verification, names another client or request, has
//! expired, or names a call no longer parked (already resumed: each state is used once) is
//! refused and nothing is taken. Bounds: [`MAX_PER_CLIENT`] parked calls per client (a call
//! parked over it drops the client's oldest, most likely one its agent gave up on), each at
//! most [`PARK_TIMEOUT`]; a call dropped answers the server's waiting requests with an error
//! and is cancelled ([`Parked`]'s fields do so when dropped).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use gatehouse_mcp::error::RpcError;
use gatehouse_mcp::features::input_round::InputKey;
use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use sha2::Sha256;
use tokio::sync::{mpsc, oneshot, watch};

/// Calls one client may have parked at once.
pub const MAX_PER_CLIENT: usize = 8;
/// How long a parked call waits for the agent's retry.
pub const PARK_TIMEOUT: Duration = Duration::from_secs(120);

type HmacSha256 = Hmac<Sha256>;

/// A call's final answer: a result, or a JSON-RPC error; `None` when it was cancelled (what the
/// gateway answers a request with).
pub type Outcome = Option<Result<Value, gatehouse_mcp::error::RpcError>>;

/// A server's request waiting for the agent's input, and where its answer goes.
pub struct Asked {
    pub method: String,
    pub params: Option<Value>,
    pub answer: oneshot::Sender<Result<Value, RpcError>>,
    /// Where a 2026-07-28 server's input request came from: its key and round (passed on
    /// under the same key, the round put to the agent whole); `None` for a request of its own.
    pub from: Option<InputKey>,
}

/// Sets the call's cancellation when dropped.
pub struct CancelOnDrop(pub watch::Sender<bool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        let _ = self.0.send(true);
    }
}

/// A call running while its agent gathers input: its outcome to come, the server's requests
/// to come, and those put to the agent (by key) but not yet answered. Dropped, the waiting
/// requests are answered with an error (their senders go) and the call is cancelled.
pub struct Parked {
    pub client: String,
    /// The request the call answers: its method and what it names (`tools/call e__echo`).
    pub request: String,
    pub outcome: oneshot::Receiver<Outcome>,
    pub asks: mpsc::Receiver<Asked>,
    /// The call's progress notifications, told to whichever request waits for the call.
    pub notes: mpsc::Receiver<Value>,
    pub waiting: Vec<(String, Asked)>,
    /// The next key for a request put to the agent (`r1`, `r2`, ...; unique within the call).
    pub next_key: u64,
    pub _cancel: CancelOnDrop,
}

/// Why a `requestState` is refused (the agent is told: -32602).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    Malformed,
    Forged,
    OtherClient,
    OtherRequest,
    Expired,
    Gone,
}

impl Refused {
    pub fn message(self) -> &'static str {
        match self {
            Refused::Malformed => "Invalid params: `requestState` is not one Gatehouse gave",
            Refused::Forged => "Invalid params: `requestState` failed verification",
            Refused::OtherClient => "Invalid params: `requestState` was given to another client",
            Refused::OtherRequest => "Invalid params: `requestState` belongs to another request",
            Refused::Expired => "Invalid params: `requestState` has expired",
            Refused::Gone => {
                "Invalid params: `requestState` names no waiting call (already used, or ended)"
            }
        }
    }
}

struct Entry {
    parked: Parked,
    /// When it was parked: the client's oldest makes room for a new one over the bound.
    at: tokio::time::Instant,
    /// The task that drops the entry at [`PARK_TIMEOUT`]; the entry leaving first (resumed,
    /// or the store dropped) stops it.
    _expiry: Expiry,
}

/// Aborts its task when dropped.
struct Expiry(tokio::task::JoinHandle<()>);

impl Drop for Expiry {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The parked calls of every client.
pub struct ParkedCalls {
    key: [u8; 32],
    /// Whether the key is random; without, no state verifies (a known key would be forgeable).
    keyed: bool,
    entries: Mutex<HashMap<String, Entry>>,
}

impl std::fmt::Debug for ParkedCalls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParkedCalls").finish_non_exhaustive()
    }
}

impl Default for ParkedCalls {
    fn default() -> Self {
        let mut key = [0u8; 32];
        let keyed = getrandom::fill(&mut key).is_ok();
        if !keyed {
            tracing::error!(
                "no randomness for the gateway's request states: every retry will be refused"
            );
        }
        ParkedCalls {
            key,
            keyed,
            entries: Mutex::default(),
        }
    }
}

/// HMAC-SHA256 under `key`. HMAC takes a key of any length, so the fallback (a zero key of the
/// block size) is never reached.
fn keyed(key: &[u8]) -> HmacSha256 {
    HmacSha256::new_from_slice(key).unwrap_or_else(|_| {
        <HmacSha256 as hmac::digest::KeyInit>::new(&hmac::digest::Key::<HmacSha256>::default())
    })
}

fn random_id() -> String {
    let mut bytes = [0u8; 16];
    let _ = getrandom::fill(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

impl ParkedCalls {
    fn mac(&self) -> HmacSha256 {
        keyed(&self.key)
    }

    fn sign(&self, payload: &Value) -> String {
        let payload = payload.to_string();
        let mut mac = self.mac();
        mac.update(payload.as_bytes());
        let tag = mac.finalize().into_bytes();
        format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(payload),
            URL_SAFE_NO_PAD.encode(tag)
        )
    }

    /// The payload of `state`, if this engine signed it.
    fn verify(&self, state: &str) -> Result<Value, Refused> {
        if !self.keyed {
            return Err(Refused::Forged);
        }
        let (payload, tag) = state.split_once('.').ok_or(Refused::Malformed)?;
        let payload = URL_SAFE_NO_PAD
            .decode(payload)
            .map_err(|_| Refused::Malformed)?;
        let tag = URL_SAFE_NO_PAD
            .decode(tag)
            .map_err(|_| Refused::Malformed)?;
        let mut mac = self.mac();
        mac.update(&payload);
        mac.verify_slice(&tag).map_err(|_| Refused::Forged)?;
        serde_json::from_slice(&payload).map_err(|_| Refused::Malformed)
    }

    /// Parks `parked` and gives the state that resumes it; when its client already has
    /// [`MAX_PER_CLIENT`] parked, the oldest of them is dropped. It is dropped after
    /// [`PARK_TIMEOUT`] unless resumed first.
    pub fn park(self: &Arc<Self>, parked: Parked) -> String {
        let id = random_id();
        let payload = json!({
            "call": id,
            "client": parked.client,
            "request": parked.request,
            "expires": now_ms().saturating_add(u64::try_from(PARK_TIMEOUT.as_millis()).unwrap_or(u64::MAX)),
        });
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        let of_client: Vec<(&String, tokio::time::Instant)> = entries
            .iter()
            .filter(|(_, e)| e.parked.client == parked.client)
            .map(|(id, e)| (id, e.at))
            .collect();
        let oldest = (of_client.len() >= MAX_PER_CLIENT)
            .then(|| of_client.into_iter().min_by_key(|(_, at)| *at))
            .flatten()
            .map(|(id, _)| id.clone());
        // Dropped outside the lock, as at its expiry.
        let dropped = oldest.and_then(|id| entries.remove(&id));
        let calls: Weak<ParkedCalls> = Arc::downgrade(self);
        let expiring = id.clone();
        let expiry = Expiry(tokio::spawn(async move {
            // Not a wait for another task: the bound itself, on tokio's clock (tests pause it).
            tokio::time::sleep(PARK_TIMEOUT).await;
            if let Some(calls) = calls.upgrade() {
                let gone = calls
                    .entries
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .remove(&expiring);
                // Dropped outside the lock: the server's requests answered, the call cancelled
                // (and this task's own abort, which comes after its last await, a no-op).
                drop(gone);
            }
        }));
        entries.insert(
            id,
            Entry {
                parked,
                at: tokio::time::Instant::now(),
                _expiry: expiry,
            },
        );
        drop(entries);
        drop(dropped);
        self.sign(&payload)
    }

    /// Takes the call `state` parks, when it was given to `client` for `request` and has not
    /// expired; nothing is taken otherwise.
    pub fn resume(&self, client: &str, request: &str, state: &str) -> Result<Parked, Refused> {
        let payload = self.verify(state)?;
        if payload["client"].as_str() != Some(client) {
            return Err(Refused::OtherClient);
        }
        if payload["request"].as_str() != Some(request) {
            return Err(Refused::OtherRequest);
        }
        if payload["expires"].as_u64().is_none_or(|at| at < now_ms()) {
            return Err(Refused::Expired);
        }
        let id = payload["call"].as_str().ok_or(Refused::Malformed)?;
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        match entries.get(id) {
            Some(entry) if entry.parked.client == client => {}
            _ => return Err(Refused::Gone),
        }
        entries
            .remove(id)
            .map(|entry| entry.parked)
            .ok_or(Refused::Gone)
    }

    /// How many calls `client` has parked.
    #[cfg(test)]
    pub fn parked(&self, client: &str) -> usize {
        self.entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .values()
            .filter(|e| e.parked.client == client)
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parked(
        client: &str,
    ) -> (
        Parked,
        oneshot::Receiver<Result<Value, RpcError>>,
        watch::Receiver<bool>,
    ) {
        let (_done, outcome) = oneshot::channel();
        let (_ask, asks) = mpsc::channel(1);
        let (_note, notes) = mpsc::channel(1);
        let (answer, answered) = oneshot::channel();
        let (cancel, cancelled) = watch::channel(false);
        let asked = Asked {
            method: "sampling/createMessage".to_owned(),
            params: None,
            answer,
            from: None,
        };
        let parked = Parked {
            client: client.to_owned(),
            request: "tools/call e__echo".to_owned(),
            outcome,
            asks,
            notes,
            waiting: vec![("r1".to_owned(), asked)],
            next_key: 2,
            _cancel: CancelOnDrop(cancel),
        };
        (parked, answered, cancelled)
    }

    fn parks(calls: &Arc<ParkedCalls>, call: Parked) -> String {
        calls.park(call)
    }

    #[tokio::test]
    async fn a_state_resumes_its_call_once_and_only_for_its_client_and_request() {
        let calls = Arc::new(ParkedCalls::default());
        let (call, _answered, _cancelled) = parked("a");
        let state = parks(&calls, call);
        assert_eq!(
            calls.resume("b", "tools/call e__echo", &state).err(),
            Some(Refused::OtherClient)
        );
        assert_eq!(
            calls.resume("a", "tools/call e__add", &state).err(),
            Some(Refused::OtherRequest)
        );
        assert_eq!(calls.parked("a"), 1, "a refused state takes nothing");
        let resumed = calls
            .resume("a", "tools/call e__echo", &state)
            .expect("resumed");
        assert_eq!(resumed.waiting[0].0, "r1");
        assert_eq!(
            calls.resume("a", "tools/call e__echo", &state).err(),
            Some(Refused::Gone),
            "used once"
        );
    }

    #[tokio::test]
    async fn a_tampered_or_foreign_state_is_refused() {
        let calls = Arc::new(ParkedCalls::default());
        let (call, _answered, _cancelled) = parked("a");
        let state = parks(&calls, call);
        let (payload, tag) = state.split_once('.').expect("two parts");
        let mut claims: Value =
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).expect("base64"))
                .expect("json");
        claims["client"] = json!("b");
        let forged = format!("{}.{tag}", URL_SAFE_NO_PAD.encode(claims.to_string()));
        assert_eq!(
            calls.resume("b", "tools/call e__echo", &forged).err(),
            Some(Refused::Forged)
        );
        let other_engine = Arc::new(ParkedCalls::default());
        assert_eq!(
            other_engine.resume("a", "tools/call e__echo", &state).err(),
            Some(Refused::Forged)
        );
        for garbage in ["", "x", "x.y", "!!.!!"] {
            assert!(
                calls.resume("a", "tools/call", garbage).is_err(),
                "{garbage}"
            );
        }
        assert_eq!(calls.parked("a"), 1);
    }

    #[tokio::test(start_paused = true)]
    async fn a_call_never_resumed_is_dropped_after_the_bound_answering_and_cancelling() {
        let calls = Arc::new(ParkedCalls::default());
        let (call, answered, mut cancelled) = parked("a");
        let _state = parks(&calls, call);
        // The clock runs on (paused time advances when everything waits).
        assert!(
            answered.await.is_err(),
            "the server's request is answered with an error"
        );
        assert!(*cancelled.wait_for(|c| *c).await.expect("still there"));
        assert_eq!(calls.parked("a"), 0);
    }

    #[tokio::test]
    async fn a_client_parks_at_most_its_bound_its_oldest_dropped_for_a_new_one() {
        let calls = Arc::new(ParkedCalls::default());
        let mut kept = Vec::new();
        for _ in 0..MAX_PER_CLIENT {
            let (call, answered, cancelled) = parked("a");
            kept.push((parks(&calls, call), answered, cancelled));
        }
        let (call, _answered, _cancelled) = parked("a");
        let newest = parks(&calls, call);
        assert_eq!(calls.parked("a"), MAX_PER_CLIENT, "the bound holds");
        let (oldest, answered, cancelled) = kept.remove(0);
        assert!(
            answered.await.is_err(),
            "the oldest's waiting request is answered (with an error)"
        );
        assert!(*cancelled.borrow(), "the oldest call is cancelled");
        assert!(calls.resume("a", "tools/call e__echo", &oldest).is_err());
        assert!(calls.resume("a", "tools/call e__echo", &newest).is_ok());
        let (call, _answered, _cancelled) = parked("b");
        parks(&calls, call);
        assert_eq!(calls.parked("b"), 1, "another client's bound is its own");
        assert_eq!(calls.parked("a"), MAX_PER_CLIENT - 1);
    }
}
