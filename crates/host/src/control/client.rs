//! A face's side of the control socket: [`ControlClient::connect`] finds the data directory's
//! engine (none: `Ok(None)`), says `hello`, and then sends typed requests, each answered in turn
//! or with the engine's error mapped back to a [`HostError`] with the same [`ErrorCode`].
//! Notices for a request (progress, approvals) go to the channel given with it.

use std::collections::HashMap;
use std::future::Future;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use serde::de::DeserializeOwned;
use serde_json::Value;
use tokio::io::BufReader;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

use gatehouse_mcp::{Prompt, Resource, ResourceTemplate};

use super::answers::{
    CompletionAsk, CompletionReply, Listed, Pong, PromptReply, ReadReply, ServerFacts, ToolListing,
};
use super::framing::{Frame, FrameReader, write_message};
use super::lock::{EngineInfo, socket_path};
use super::protocol::{
    AgentsPauseState, AnswerParams, CallParams, CallReply, CompleteParams, EngineStatus, ErrorCode,
    ErrorData, FaceKind, Hello, NoParams, Notice, OnServer, PROTOCOL_VERSION, PauseParams,
    PromptParams, ReadParams, Request, TaskListing, WatchParams, request_message,
};
use crate::connections::watching::WatchEvent;
use crate::error::{HostError, Result};
use crate::oversight::approvals::Answer;
use crate::store::paths;
use crate::vocabulary::approval::PendingApproval;

/// Watch notices waiting between the socket and the watcher.
const WATCH_NOTICES: usize = 64;

#[cfg(unix)]
pub(crate) type Reader = super::socket_halves::ReadHalf;
#[cfg(unix)]
pub(crate) type Writer = super::socket_halves::WriteHalf;
#[cfg(windows)]
pub(crate) type Reader = tokio::io::ReadHalf<tokio::net::windows::named_pipe::NamedPipeClient>;
#[cfg(windows)]
pub(crate) type Writer = tokio::io::WriteHalf<tokio::net::windows::named_pipe::NamedPipeClient>;

type Replies = Arc<Mutex<HashMap<u64, oneshot::Sender<Result<Value>>>>>;
type Listeners = Arc<Mutex<HashMap<u64, mpsc::Sender<Notice>>>>;

/// A connection to the running engine.
#[derive(Debug)]
pub struct ControlClient {
    writer: tokio::sync::Mutex<Writer>,
    replies: Replies,
    listeners: Listeners,
    next_id: AtomicU64,
    reader: JoinHandle<()>,
    engine: EngineInfo,
}

impl Drop for ControlClient {
    fn drop(&mut self) {
        self.reader.abort();
    }
}

impl ControlClient {
    /// Attaches to the engine of `data_dir` as a face of `face` kind named `name`. `None` when no
    /// engine runs there (no socket, or nobody listening on it).
    pub async fn connect(
        data_dir: Option<&Path>,
        face: FaceKind,
        name: &str,
    ) -> Result<Option<ControlClient>> {
        let data_dir = paths::data_dir(data_dir)?;
        let opened = open(&data_dir).await?;
        let Some((read, write)) = opened else {
            return Ok(None);
        };
        let replies: Replies = Arc::default();
        let listeners: Listeners = Arc::default();
        let reader = tokio::spawn(read_replies(
            FrameReader::new(BufReader::new(read)),
            replies.clone(),
            listeners.clone(),
        ));
        let mut client = ControlClient {
            writer: tokio::sync::Mutex::new(write),
            replies,
            listeners,
            next_id: AtomicU64::new(1),
            reader,
            engine: placeholder_info(&data_dir),
        };
        let hello = Request::Hello(Hello {
            version: PROTOCOL_VERSION,
            face,
            name: name.to_owned(),
            pid: std::process::id(),
        });
        client.engine = client.ask(hello, None).await?;
        Ok(Some(client))
    }

    /// The engine attached to, as it said in reply to `hello`.
    pub fn engine(&self) -> &EngineInfo {
        &self.engine
    }

    pub async fn status(&self) -> Result<EngineStatus> {
        self.ask(Request::Status(NoParams {}), None).await
    }

    pub async fn list_tools(&self, server: &str) -> Result<ToolListing> {
        self.ask(Request::ListTools(on(server)), None).await
    }

    pub async fn ping(&self, server: &str) -> Result<Pong> {
        self.ask(Request::Ping(on(server)), None).await
    }

    pub async fn info(&self, server: &str) -> Result<ServerFacts> {
        self.ask(Request::Info(on(server)), None).await
    }

    pub async fn resources(&self, server: &str) -> Result<Listed<Resource>> {
        self.ask(Request::ListResources(on(server)), None).await
    }

    pub async fn templates(&self, server: &str) -> Result<Listed<ResourceTemplate>> {
        self.ask(Request::ListTemplates(on(server)), None).await
    }

    pub async fn prompts(&self, server: &str) -> Result<Listed<Prompt>> {
        self.ask(Request::ListPrompts(on(server)), None).await
    }

    pub async fn read_resource(&self, server: &str, uri: &str) -> Result<ReadReply> {
        let params = ReadParams {
            server: server.to_owned(),
            uri: uri.to_owned(),
        };
        self.ask(Request::ReadResource(params), None).await
    }

    pub async fn get_prompt(&self, params: PromptParams) -> Result<PromptReply> {
        self.ask(Request::GetPrompt(params), None).await
    }

    pub async fn complete(&self, server: &str, ask: CompletionAsk) -> Result<CompletionReply> {
        let params = CompleteParams {
            server: server.to_owned(),
            ask,
        };
        self.ask(Request::Complete(params), None).await
    }

    pub async fn tasks(&self, server: &str) -> Result<TaskListing> {
        self.ask(Request::ListTasks(on(server)), None).await
    }

    /// Watches a server on the engine's live session: each event into `events`, until `cancel`
    /// resolves, the receiver of `events` is dropped, or the watch ends (an error saying why).
    pub async fn watch(
        &self,
        params: WatchParams,
        events: mpsc::Sender<WatchEvent>,
        cancel: impl Future<Output = ()>,
    ) -> Result<()> {
        let (notices, mut noticed) = mpsc::channel::<Notice>(WATCH_NOTICES);
        let forward = async move {
            while let Some(notice) = noticed.recv().await {
                if let Notice::Watched { event, .. } = notice
                    && events.send(event).await.is_err()
                {
                    return;
                }
            }
        };
        let watched = self.ask_until::<Value>(Request::Watch(params), Some(notices), cancel);
        tokio::select! {
            watched = watched => watched.map(|_| ()),
            // The watcher is gone.
            () = forward => Ok(()),
        }
    }

    pub async fn pending_approvals(&self) -> Result<Vec<PendingApproval>> {
        self.ask(Request::ListApprovals(NoParams {}), None).await
    }

    pub async fn answer_approval(&self, id: &str, answer: Answer) -> Result<()> {
        let params = AnswerParams {
            id: id.to_owned(),
            answer,
        };
        let _: Value = self.ask(Request::AnswerApproval(params), None).await?;
        Ok(())
    }

    /// Whether the engine's agents are paused.
    pub async fn agents_paused(&self) -> Result<AgentsPauseState> {
        self.ask(Request::AgentsPaused(NoParams {}), None).await
    }

    /// Pauses or resumes the engine's agents.
    pub async fn set_agents_paused(&self, paused: bool) -> Result<AgentsPauseState> {
        self.ask(Request::SetAgentsPaused(PauseParams { paused }), None)
            .await
    }

    /// Calls a tool; its progress goes to `notices`; when `cancel` resolves first the call is
    /// cancelled and this returns the engine's `cancelled` error.
    pub async fn call_tool(
        &self,
        params: CallParams,
        notices: mpsc::Sender<Notice>,
        cancel: impl Future<Output = ()>,
    ) -> Result<CallReply> {
        self.ask_until(Request::CallTool(params), Some(notices), cancel)
            .await
    }

    /// Follows the approval queue: the pending requests, then each asked, answered or
    /// withdrawn, into `notices`, until `cancel` resolves or the engine goes.
    pub async fn watch_approvals(
        &self,
        notices: mpsc::Sender<Notice>,
        cancel: impl Future<Output = ()>,
    ) -> Result<()> {
        let _: Value = self
            .ask_until(Request::WatchApprovals(NoParams {}), Some(notices), cancel)
            .await?;
        Ok(())
    }

    async fn ask<T: DeserializeOwned>(
        &self,
        request: Request,
        notices: Option<mpsc::Sender<Notice>>,
    ) -> Result<T> {
        self.ask_until(request, notices, std::future::pending())
            .await
    }

    async fn ask_until<T: DeserializeOwned>(
        &self,
        request: Request,
        notices: Option<mpsc::Sender<Notice>>,
        cancel: impl Future<Output = ()>,
    ) -> Result<T> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, mut rx) = oneshot::channel();
        lock(&self.replies).insert(id, tx);
        if let Some(notices) = notices {
            lock(&self.listeners).insert(id, notices);
        }
        let message = request_message(id, &request)
            .map_err(|e| HostError::Protocol(format!("cannot encode: {e}")))?;
        self.send(&message).await?;
        tokio::pin!(cancel);
        let mut cancelled = false;
        let reply = loop {
            tokio::select! {
                reply = &mut rx => break reply,
                () = &mut cancel, if !cancelled => {
                    cancelled = true;
                    let cancel = serde_json::json!({
                        "jsonrpc": "2.0", "method": "cancel", "params": { "id": id }
                    });
                    self.send(&cancel).await?;
                }
            }
        };
        lock(&self.listeners).remove(&id);
        let value = reply.unwrap_or_else(|_| Err(gone()))?;
        serde_json::from_value(value)
            .map_err(|e| HostError::Protocol(format!("the engine's reply is not understood: {e}")))
    }

    async fn send(&self, message: &Value) -> Result<()> {
        let mut writer = self.writer.lock().await;
        write_message(&mut *writer, message)
            .await
            .map_err(|_| gone())
    }
}

fn on(server: &str) -> OnServer {
    OnServer {
        server: server.to_owned(),
    }
}

/// Connects to the engine of `data_dir` (its socket, or its named pipe on Windows); `None` when
/// no engine listens there.
pub(crate) async fn open(data_dir: &Path) -> Result<Option<(Reader, Writer)>> {
    #[cfg(unix)]
    return open_socket(data_dir).await;
    #[cfg(windows)]
    return super::pipe::connect(data_dir).await;
}

/// Connects to `DATA/engine.sock`; `None` when nobody listens there.
#[cfg(unix)]
async fn open_socket(data_dir: &Path) -> Result<Option<(Reader, Writer)>> {
    let path = socket_path(data_dir);
    match tokio::net::UnixStream::connect(&path).await {
        Ok(stream) => stream
            .into_std()
            .and_then(super::socket_halves::split)
            .map(Some)
            .map_err(|e| {
                HostError::io(
                    format!("cannot use the engine's socket at {}", path.display()),
                    e,
                )
            }),
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::ConnectionRefused
            ) =>
        {
            Ok(None)
        }
        Err(e) => Err(HostError::io(
            format!("cannot reach the engine at {}", path.display()),
            e,
        )),
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

fn gone() -> HostError {
    HostError::EngineStopping("the engine closed the connection (it stopped or was killed)".into())
}

fn placeholder_info(data_dir: &Path) -> EngineInfo {
    EngineInfo {
        pid: 0,
        since: String::new(),
        kind: super::lock::EngineKind::Serve,
        data_dir: data_dir.to_path_buf(),
        socket: socket_path(data_dir),
        version: String::new(),
    }
}

/// Reads the engine's messages: replies to their waiting request, notices to their listener.
/// When the engine goes, every waiting request fails.
async fn read_replies(
    mut reader: FrameReader<BufReader<Reader>>,
    replies: Replies,
    listeners: Listeners,
) {
    let mut unaddressed = None;
    loop {
        let bytes = match reader.next().await {
            Ok(Some(Frame::Message(bytes))) => bytes,
            Ok(Some(Frame::TooLong(_))) => continue,
            Ok(None) | Err(_) => break,
        };
        let Ok(message) = serde_json::from_slice::<Value>(&bytes) else {
            continue;
        };
        if message.get("method").is_some() {
            let Ok(notice) = serde_json::from_value::<Notice>(message) else {
                continue;
            };
            let request = notice.request();
            let listener = lock(&listeners).get(&request).cloned();
            if let Some(listener) = listener {
                let _ = listener.send(notice).await;
            }
            continue;
        }
        let outcome = match message.get("error") {
            Some(error) => Err(reply_error(error)),
            None => Ok(message.get("result").cloned().unwrap_or(Value::Null)),
        };
        match message.get("id").and_then(Value::as_u64) {
            Some(id) => {
                if let Some(waiting) = lock(&replies).remove(&id) {
                    let _ = waiting.send(outcome);
                }
            }
            // An error for no request (the engine refused the connection): every request fails.
            None => unaddressed = outcome.err(),
        }
    }
    let waiting: Vec<_> = lock(&replies).drain().map(|(_, tx)| tx).collect();
    for tx in waiting {
        let error = match &unaddressed {
            Some(HostError::Remote { code, message }) => HostError::Remote {
                code: *code,
                message: message.clone(),
            },
            _ => gone(),
        };
        let _ = tx.send(Err(error));
    }
}

/// The engine's error reply as the [`HostError`] with its code.
pub(crate) fn reply_error(error: &Value) -> HostError {
    let message = error
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("the engine refused the request")
        .to_owned();
    let code = error
        .get("data")
        .and_then(|data| serde_json::from_value::<ErrorData>(data.clone()).ok())
        .map_or(ErrorCode::Protocol, |data| data.code);
    match code {
        ErrorCode::Denied => HostError::Denied {
            reason: message,
            rule: None,
        },
        ErrorCode::NotConnected => HostError::NotConnected(message),
        ErrorCode::EngineStopping => HostError::EngineStopping(message),
        ErrorCode::Validation => HostError::Validation(message),
        code => HostError::Remote { code, message },
    }
}
