//! The HTTP endpoint's sessions (`Mcp-Session-Id`). Each is one [`session::serve`] task, fed the
//! client's POSTed messages as lines through an in-memory pipe; what it sends back is routed
//! ([`super::streams`]): a response to the POST waiting for its id (as JSON, or last on its SSE
//! stream), a progress notification to the SSE stream of the POST whose request carried its
//! token, a server's request relayed to the agent (`gateway::relay`) to the SSE stream of the
//! call it serves (its id names the call: `relay::request_of`) while that runs, else to the
//! earliest stream of a call still running, everything else, and those when no such stream
//! runs, to the session's GET stream.
//!
//! At most [`MAX_PER_CLIENT`] sessions per client and [`MAX_SESSIONS`] in all; a session idle
//! (no request, no POST waiting, no stream open) for the idle time ends, and a request
//! naming it then gets 404 (2025-11-25 basic/transports, "Session Management"). The idle time
//! is 30 minutes, or `GATEHOUSE_GATEWAY_IDLE_SECS`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use gatehouse_mcp::transport::lines::LineReader;
use serde_json::Value;
use tokio::io::{AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinSet;
use tokio::time::Instant;

use super::streams::{Event, Streams};
use crate::gateway::relay;
use crate::gateway::session::{self, Agent};
use crate::host::Host;

/// Sessions one client may hold at once.
pub const MAX_PER_CLIENT: usize = 16;
/// Sessions the endpoint holds at once.
pub const MAX_SESSIONS: usize = 256;
/// 2026-07-28 requests one client may have running at once (each served by a session of its
/// own that no `Mcp-Session-Id` names, `super::stateless`).
pub const MAX_STATELESS_PER_CLIENT: usize = 64;
/// The longest message a client may send.
pub const MAX_MESSAGE_BYTES: usize = 4 * 1024 * 1024;
/// Messages queued from a session to the router.
const OUT_QUEUE: usize = 64;
/// Bytes of the pipe into a session.
const PIPE_BYTES: usize = 64 * 1024;
/// How long a session may sit idle by default.
const DEFAULT_IDLE: Duration = Duration::from_secs(30 * 60);

/// The requests during which a server may ask the agent something (`gateway::relay`), and
/// which may take a while: answered with SSE when the client accepts it.
pub const CALLS: [&str; 3] = ["tools/call", "resources/read", "prompts/get"];

/// A POST waiting for its response: as JSON, or on its SSE stream (its priming event's id, then
/// its events, the response last).
pub enum Waiter {
    Json(oneshot::Receiver<Value>),
    Stream {
        priming: String,
        events: mpsc::Receiver<Event>,
    },
}

enum Answer {
    Json(oneshot::Sender<Value>),
    Stream { stream: u64, call: bool },
}

struct Pending {
    answer: Answer,
    progress: Option<String>,
}

/// One session.
pub struct Session {
    pub id: String,
    pub client: String,
    /// Serves one 2026-07-28 request: no `Mcp-Session-Id` names it.
    stateless: bool,
    input: tokio::sync::Mutex<Option<DuplexStream>>,
    pending: Mutex<HashMap<String, Pending>>,
    /// Progress token → the request key it reports on.
    progress: Mutex<HashMap<String, String>>,
    pub streams: Mutex<Streams>,
    used: Mutex<Instant>,
    stop: watch::Sender<bool>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("id", &self.id)
            .field("client", &self.client)
            .finish()
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Session {
    /// Passes one message to the session; `false` when it has ended.
    pub async fn send(&self, message: &Value) -> bool {
        self.touch();
        let Ok(mut line) = serde_json::to_vec(message) else {
            return false;
        };
        line.push(b'\n');
        let mut input = self.input.lock().await;
        match input.as_mut() {
            Some(pipe) => pipe.write_all(&line).await.is_ok(),
            None => false,
        }
    }

    /// Waits for the response to request `id` of `method`: as JSON, or with `sse` on an SSE
    /// stream that also carries its progress (token `progress`) and the server requests it
    /// causes.
    pub fn wait_for(
        self: &Arc<Self>,
        id: &Value,
        method: &str,
        progress: Option<&Value>,
        sse: bool,
    ) -> WaitGuard {
        let key = id.to_string();
        let (answer, waiter) = if sse {
            let (stream, priming, events) = lock(&self.streams).open_post();
            let call = CALLS.contains(&method);
            (
                Answer::Stream { stream, call },
                Waiter::Stream { priming, events },
            )
        } else {
            let (response, response_rx) = oneshot::channel();
            (Answer::Json(response), Waiter::Json(response_rx))
        };
        let progress = progress.filter(|_| sse).map(Value::to_string);
        if let Some(token) = &progress {
            lock(&self.progress).insert(token.clone(), key.clone());
        }
        lock(&self.pending).insert(key.clone(), Pending { answer, progress });
        WaitGuard {
            session: self.clone(),
            key,
            armed: true,
            waiter: Some(waiter),
        }
    }

    /// Whether a request with this id is already waiting.
    pub fn is_waiting(&self, id: &Value) -> bool {
        lock(&self.pending).contains_key(&id.to_string())
    }

    /// The client cancelled request `id`: its POST gets no response.
    pub fn cancelled(&self, id: &Value) {
        self.forget(&id.to_string());
    }

    fn forget(&self, key: &str) {
        let Some(pending) = lock(&self.pending).remove(key) else {
            return;
        };
        if let Some(token) = pending.progress {
            lock(&self.progress).remove(&token);
        }
        if let Answer::Stream { stream, .. } = pending.answer {
            lock(&self.streams).drop_post(stream);
        }
    }

    pub fn touch(&self) {
        *lock(&self.used) = Instant::now();
    }

    fn idle_since(&self) -> Option<Instant> {
        let busy = !lock(&self.pending).is_empty() || lock(&self.streams).is_open();
        (!busy).then(|| *lock(&self.used))
    }

    /// Routes one message the session sent.
    fn route(&self, message: Value) {
        let Ok(json) = serde_json::to_string(&message) else {
            return;
        };
        let json: Arc<str> = Arc::from(json);
        let is_response = message.get("method").is_none();
        if is_response && let Some(id) = message.get("id") {
            let key = id.to_string();
            let pending = lock(&self.pending).remove(&key);
            if let Some(pending) = pending {
                if let Some(token) = pending.progress {
                    lock(&self.progress).remove(&token);
                }
                match pending.answer {
                    Answer::Json(response) => {
                        let _ = response.send(message);
                    }
                    // Kept for resumption even when its POST's connection went away.
                    Answer::Stream { stream, .. } => lock(&self.streams).push(stream, json, true),
                }
            }
            // A response nobody waits for (cancelled, or its JSON POST went away) is dropped:
            // the server must not send it on the GET stream.
            return;
        }
        if let Some(token) = message.pointer("/params/progressToken") {
            let key = lock(&self.progress).get(&token.to_string()).cloned();
            if let Some(key) = key {
                let stream = match lock(&self.pending).get(&key).map(|p| &p.answer) {
                    Some(Answer::Stream { stream, .. }) => Some(*stream),
                    _ => None,
                };
                if let Some(stream) = stream {
                    lock(&self.streams).push(stream, json, false);
                }
                return;
            }
        }
        if let Some(id) = message.get("id") {
            // A server's request relayed to the agent: on the stream of the call it serves
            // while that runs, else of the call still running that started first.
            let pending = lock(&self.pending);
            let stream_of = |p: &Pending| match p.answer {
                Answer::Stream { stream, call: true } => Some(stream),
                _ => None,
            };
            let stream = relay::request_of(id)
                .and_then(|key| pending.get(key))
                .and_then(stream_of)
                .or_else(|| pending.values().filter_map(stream_of).min());
            drop(pending);
            if let Some(stream) = stream {
                lock(&self.streams).push(stream, json, false);
                return;
            }
        }
        lock(&self.streams).push_get(json);
    }

    /// Ends the session. Ended by the client or for idleness, its pipe closes, so it cancels
    /// what it still runs (unanswered); when the endpoint stops, those requests are answered
    /// with an error saying so. The POSTs still waiting end when its task does.
    async fn end(&self, stopping: bool) {
        if stopping {
            let _ = self.stop.send(true);
        } else {
            self.input.lock().await.take();
        }
        lock(&self.streams).close();
    }
}

/// Removes a POST's waiter when the POST ends, however it ends, unless disarmed: a POST
/// answered on an SSE stream keeps waiting when its connection goes away, so that the response
/// is kept for the client to resume.
pub struct WaitGuard {
    session: Arc<Session>,
    key: String,
    armed: bool,
    pub waiter: Option<Waiter>,
}

impl WaitGuard {
    /// The response is awaited whether or not the POST's connection stays.
    pub fn disarm(&mut self) {
        self.armed = false;
    }
}

impl Drop for WaitGuard {
    fn drop(&mut self) {
        if self.armed {
            self.session.forget(&self.key);
        }
    }
}

/// Why a session was not made.
#[derive(Debug)]
pub enum Refused {
    ClientFull,
    Full,
}

/// Every session of the endpoint; owns their tasks.
pub struct Sessions {
    host: Arc<Host>,
    table: Mutex<HashMap<String, Arc<Session>>>,
    tasks: Mutex<JoinSet<()>>,
    idle: Duration,
}

impl std::fmt::Debug for Sessions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sessions")
            .field("idle", &self.idle)
            .finish_non_exhaustive()
    }
}

impl Sessions {
    pub fn new(host: Arc<Host>) -> Sessions {
        let idle = std::env::var("GATEHOUSE_GATEWAY_IDLE_SECS")
            .ok()
            .and_then(|s| s.parse::<u64>().ok())
            .filter(|s| *s > 0)
            .map_or(DEFAULT_IDLE, Duration::from_secs);
        Sessions::with_idle(host, idle)
    }

    pub fn with_idle(host: Arc<Host>, idle: Duration) -> Sessions {
        Sessions {
            host,
            table: Mutex::default(),
            tasks: Mutex::new(JoinSet::new()),
            idle,
        }
    }

    /// The engine the sessions serve.
    pub fn host(&self) -> &Arc<Host> {
        &self.host
    }

    /// How often idle sessions are looked for.
    pub fn sweep_every(&self) -> Duration {
        (self.idle / 4).clamp(Duration::from_millis(100), Duration::from_secs(30))
    }

    /// Starts a session for `client`.
    pub fn create(&self, client: &str) -> Result<Arc<Session>, Refused> {
        self.start(client, false)
    }

    /// Starts a session serving one 2026-07-28 request of `client`; end it (`end`) when the
    /// request is done.
    pub fn create_stateless(&self, client: &str) -> Result<Arc<Session>, Refused> {
        self.start(client, true)
    }

    fn start(&self, client: &str, stateless: bool) -> Result<Arc<Session>, Refused> {
        let mut table = lock(&self.table);
        if table.len() >= MAX_SESSIONS {
            return Err(Refused::Full);
        }
        let most = if stateless {
            MAX_STATELESS_PER_CLIENT
        } else {
            MAX_PER_CLIENT
        };
        let held = table
            .values()
            .filter(|s| s.client == client && s.stateless == stateless);
        if held.count() >= most {
            return Err(Refused::ClientFull);
        }
        let (ours, theirs) = tokio::io::duplex(PIPE_BYTES);
        let (out, mut routed) = mpsc::channel::<Value>(OUT_QUEUE);
        let (stop, stopped) = watch::channel(false);
        let session = Arc::new(Session {
            id: uuid::Uuid::new_v4().simple().to_string(),
            client: client.to_owned(),
            stateless,
            input: tokio::sync::Mutex::new(Some(ours)),
            pending: Mutex::default(),
            progress: Mutex::default(),
            streams: Mutex::default(),
            used: Mutex::new(Instant::now()),
            stop,
        });
        let lines = LineReader::new(BufReader::new(theirs), MAX_MESSAGE_BYTES);
        let agent = Agent {
            client: client.to_owned(),
        };
        let serving = session::serve(self.host.clone(), agent, lines, out, stopped);
        let router = {
            let session = session.clone();
            async move {
                while let Some(message) = routed.recv().await {
                    session.route(message);
                }
                // The session ended: the POSTs still waiting get no response.
                lock(&session.pending).clear();
                lock(&session.streams).close();
            }
        };
        // Two tasks, not one: the session's requests run on its own task, and a reply that woke
        // that same task would make the runtime treat it as a yield and wake the other worker.
        let mut tasks = lock(&self.tasks);
        tasks.spawn(serving);
        tasks.spawn(router);
        drop(tasks);
        table.insert(session.id.clone(), session.clone());
        Ok(session)
    }

    /// The session with this id (never one serving a 2026-07-28 request).
    pub fn get(&self, id: &str) -> Option<Arc<Session>> {
        lock(&self.table).get(id).filter(|s| !s.stateless).cloned()
    }

    /// Ends the session with this id (DELETE).
    pub async fn end(&self, id: &str) -> bool {
        let session = lock(&self.table).remove(id);
        match session {
            Some(session) => {
                session.end(false).await;
                true
            }
            None => false,
        }
    }

    /// Ends the sessions idle for longer than the idle time, and reaps ended tasks.
    pub async fn sweep(&self) {
        let expired: Vec<Arc<Session>> = {
            let mut table = lock(&self.table);
            let idle = self.idle;
            let gone: Vec<String> = table
                .values()
                .filter(|s| s.idle_since().is_some_and(|at| at.elapsed() >= idle))
                .map(|s| s.id.clone())
                .collect();
            gone.iter().filter_map(|id| table.remove(id)).collect()
        };
        for session in expired {
            session.end(false).await;
        }
        let mut tasks = lock(&self.tasks);
        while tasks.try_join_next().is_some() {}
    }

    /// Ends every session (the endpoint stops): their running requests are answered with an
    /// error saying Gatehouse is stopping; waits for them, at most `grace`.
    pub async fn end_all(&self, grace: Duration) {
        let all: Vec<Arc<Session>> = lock(&self.table).drain().map(|(_, s)| s).collect();
        for session in &all {
            session.end(true).await;
        }
        let mut tasks = std::mem::take(&mut *lock(&self.tasks));
        if tokio::time::timeout(grace, async { while tasks.join_next().await.is_some() {} })
            .await
            .is_err()
        {
            tasks.abort_all();
        }
    }
}
