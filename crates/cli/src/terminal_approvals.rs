//! The person at the terminal answers what the host asks: a tool call a rule asks about
//! (allow once, for the session, for some minutes, always, with edited arguments, or deny with
//! a reason), a server's sampling request (the person types the reply, or declines), and a
//! server's elicitation ([`crate::terminal_form`]). A grant ("session", "time") covers these
//! arguments or any, as the person says (the question's default first); "always" is offered
//! only where a rule would decide. A request withdrawn by its server is not asked, or says so
//! while it is. Without a terminal (stdin and stderr not both terminals) nobody is there to
//! ask, and the host refuses such requests at once, naming the rule that would allow them.

use std::io::{BufRead, IsTerminal, Write};
use std::sync::{Arc, Mutex};

use gatehouse_host::approvals::{Answer, Approvals, CAPACITY, PendingApproval, Question, Scope};
use gatehouse_host::{EngineEvent, Host, HostError};
use serde_json::{Value, json};
use tokio::sync::broadcast::error::RecvError;
use tokio::task::JoinHandle;

use crate::terminal_form::{ask_with, read};
use crate::terminal_text::visible;

/// How many times an answer the host refuses (edited arguments that do not match) is asked
/// again.
const ATTEMPTS: usize = 3;

/// The request being asked at the terminal right now, by id.
type AskingNow = Arc<Mutex<Option<String>>>;

/// The tasks answering at the terminal (and bringing it what to ask); stopped when dropped.
pub struct Attending(JoinHandle<()>, Option<JoinHandle<()>>);

impl Attending {
    fn with(mut self, feeding: JoinHandle<()>) -> Self {
        self.1 = Some(feeding);
        self
    }
}

impl Drop for Attending {
    fn drop(&mut self) {
        self.0.abort();
        if let Some(feeding) = &self.1 {
            feeding.abort();
        }
    }
}

/// Where the person's answers go and what still waits for one: the host's own queue when the
/// command runs in-process, the engine's over the control socket when it is attached.
pub trait Desk: Send + 'static {
    /// Whether the request `id` still waits for an answer.
    fn waiting(&self, id: &str) -> bool;
    /// Answers the request `id`; a refused answer (edited arguments that do not match) is a
    /// [`gatehouse_host::ErrorCode::Validation`] error, one no longer waiting another error.
    fn answer(&self, id: &str, answer: Answer) -> Result<(), HostError>;
}

impl Desk for Approvals {
    fn waiting(&self, id: &str) -> bool {
        self.pending().iter().any(|p| p.id == id)
    }

    fn answer(&self, id: &str, answer: Answer) -> Result<(), HostError> {
        Approvals::answer(self, id, answer)
    }
}

/// What the desk tells the terminal: a request to ask, or one taken back (withdrawn by its
/// requester, or answered elsewhere) with why.
#[derive(Debug)]
pub enum Asking {
    Asked(Box<PendingApproval>),
    Gone { id: String, reason: String },
}

impl Asking {
    /// The request `id` was answered by another face (`answer`, in a few words).
    pub fn answered(id: String, answer: &str) -> Self {
        Asking::Gone {
            id,
            reason: format!("answered elsewhere: {answer}"),
        }
    }

    /// The request `id` was withdrawn by its requester, for `reason`.
    pub fn withdrawn(id: String, reason: &str) -> Self {
        Asking::Gone {
            id,
            reason: format!("withdrawn: {reason}"),
        }
    }
}

/// Starts answering at the terminal what the in-process host asks, when there is a terminal.
pub fn attend(host: &Host) -> Option<Attending> {
    if !on_terminal() {
        return None;
    }
    host.set_attended(true);
    let mut events = host.subscribe();
    let (to_terminal, asking) = tokio::sync::mpsc::channel(CAPACITY);
    let forward = tokio::spawn(async move {
        loop {
            let next = match events.recv().await {
                Ok(EngineEvent::ApprovalAsked(pending)) => Asking::Asked(pending),
                Ok(EngineEvent::ApprovalWithdrawn { id, reason }) => Asking::withdrawn(id, &reason),
                Ok(EngineEvent::ApprovalAnswered { id, answer }) => Asking::answered(id, &answer),
                Ok(_) | Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => return,
            };
            if to_terminal.send(next).await.is_err() {
                return;
            }
        }
    });
    let attending = attend_on(host.approvals(), asking);
    if attending.is_none() {
        host.set_attended(false);
    }
    attending.map(|a| a.with(forward))
}

/// Whether a person can be asked here: stdin and stderr both terminals.
pub fn on_terminal() -> bool {
    std::io::stdin().is_terminal() && std::io::stderr().is_terminal()
}

/// Asks at the terminal what `asking` brings and gives the answers to `desk`. The questions
/// are asked one at a time, in order, by a thread of their own (reading the terminal blocks,
/// and a prompt still open must not keep the command from ending); a request taken back
/// before its turn is not asked, and one taken back while it is says so.
pub fn attend_on(
    desk: impl Desk,
    mut asking: tokio::sync::mpsc::Receiver<Asking>,
) -> Option<Attending> {
    let asking_now = AskingNow::default();
    let (to_ask, questions) = std::sync::mpsc::sync_channel::<Box<PendingApproval>>(CAPACITY);
    let prompts = {
        let asking_now = asking_now.clone();
        std::thread::Builder::new()
            .name("terminal-approvals".into())
            .spawn(move || {
                while let Ok(pending) = questions.recv() {
                    let mut input = std::io::stdin().lock();
                    put(
                        &desk,
                        &pending,
                        &asking_now,
                        &mut input,
                        &mut std::io::stderr(),
                    );
                }
            })
    };
    if let Err(e) = prompts {
        tracing::warn!("cannot ask at the terminal: {e}");
        return None;
    }
    Some(Attending(
        tokio::spawn(async move {
            while let Some(next) = asking.recv().await {
                match next {
                    Asking::Asked(pending) => {
                        if to_ask.try_send(pending).is_err() {
                            tracing::warn!("too many requests wait for the terminal");
                        }
                    }
                    Asking::Gone { id, reason } => {
                        let current = lock(&asking_now).clone();
                        if current.as_deref() == Some(id.as_str()) {
                            let _ = writeln!(
                                std::io::stderr(),
                                "\n  {}. Nothing needs your answer; press Enter.",
                                visible(&reason)
                            );
                        }
                    }
                }
            }
        }),
        None,
    ))
}

fn lock(asking_now: &AskingNow) -> std::sync::MutexGuard<'_, Option<String>> {
    asking_now
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Puts one request to the person, asking again while the host refuses the answer; a request
/// no longer waiting (withdrawn, answered elsewhere, timed out) is not asked.
fn put(
    desk: &impl Desk,
    pending: &PendingApproval,
    asking_now: &AskingNow,
    input: &mut impl BufRead,
    out: &mut impl Write,
) {
    if !desk.waiting(&pending.id) {
        return;
    }
    let _asked = Asked(asking_now);
    for _ in 0..ATTEMPTS {
        *lock(asking_now) = Some(pending.id.clone());
        let answer = match ask(pending, input, out) {
            Ok(answer) => answer,
            // The terminal went away: the request waits out its timeout elsewhere, or ends.
            Err(_) => Answer::Deny {
                reason: Some("the terminal closed".into()),
            },
        };
        // The answer given here is not news to this terminal.
        *lock(asking_now) = None;
        match desk.answer(&pending.id, answer) {
            Ok(()) => return,
            Err(refused) if refused.code() == gatehouse_host::ErrorCode::Validation => {
                let _ = writeln!(out, "  {refused}");
            }
            // Answered or withdrawn meanwhile: nothing more to ask.
            Err(_) => {
                let _ = writeln!(
                    out,
                    "  that request no longer waits (withdrawn, answered or timed out): your \
                     answer was not used"
                );
                return;
            }
        }
    }
    let _ = desk.answer(
        &pending.id,
        Answer::Deny {
            reason: Some("no valid answer at the terminal".into()),
        },
    );
}

/// Clears the request being asked when its prompt ends.
struct Asked<'a>(&'a AskingNow);

impl Drop for Asked<'_> {
    fn drop(&mut self) {
        *lock(self.0) = None;
    }
}

/// Asks about one request.
fn ask(
    pending: &PendingApproval,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> std::io::Result<Answer> {
    let server = visible(&pending.server).into_owned();
    match &pending.question {
        Question::ToolCall { .. } => crate::terminal_tool_call::ask(pending, input, out),
        Question::Sampling { params } => crate::terminal_sampling::ask(&server, params, input, out),
        Question::Elicitation {
            message,
            requested_schema,
        } => {
            let params = json!({ "message": message, "requestedSchema": requested_schema });
            Ok(elicited(ask_with(&server, &params, input, out)?))
        }
        Question::OpenUrl { message, url, .. } => {
            let params = json!({ "mode": "url", "message": message, "url": url });
            Ok(elicited(ask_with(&server, &params, input, out)?))
        }
        Question::Request { method, detail } => {
            writeln!(
                out,
                "\n`{server}`: {} ({})\n  {}",
                visible(method),
                pending.source.as_str(),
                visible(&detail.to_string())
            )?;
            writeln!(out, "  why: {}", visible(&pending.reason))?;
            let line = read(input, out, "Allow it? [y/N] ")?;
            Ok(if matches!(line.to_lowercase().as_str(), "y" | "yes") {
                Answer::Allow {
                    scope: Scope::Once,
                    arguments: None,
                    covers: None,
                }
            } else {
                Answer::Deny { reason: None }
            })
        }
    }
}

/// An elicitation's `{action, content}` as an answer.
fn elicited(result: Value) -> Answer {
    match result.get("action").and_then(Value::as_str) {
        Some("accept") => Answer::Accept {
            content: result.get("content").cloned(),
        },
        Some("cancel") => Answer::Cancel,
        _ => Answer::Deny { reason: None },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gatehouse_host::Source;
    use gatehouse_host::policy::Covers;

    fn pending(question: Question) -> PendingApproval {
        PendingApproval {
            id: "p".into(),
            server: "fs".into(),
            server_id: "s".into(),
            source: Source::App,
            caller: None,
            reason: "rule r-1 says ask".into(),
            rule: Some("r-1".into()),
            asked_at_ms: 0.0,
            expires_at_ms: 0.0,
            question,
        }
    }

    fn tool_call() -> Question {
        Question::ToolCall {
            tool: "write".into(),
            title: Some("Write a file".into()),
            description: Some("Writes text".into()),
            annotations: json!({"destructiveHint": true}),
            arguments: json!({"path": "/tmp/a"}),
            input_schema: json!({"type": "object"}),
            definition_hash: None,
            changes: vec![gatehouse_host::approvals::DefinitionChange {
                field: "description".into(),
                before: json!("Reads"),
                after: json!("Writes text"),
            }],
            default_covers: Covers::These,
            always_offered: true,
        }
    }

    fn answer(question: Question, typed: &str) -> (String, Answer) {
        let mut out = Vec::new();
        let answer = ask(&pending(question), &mut typed.as_bytes(), &mut out).expect("asked");
        (String::from_utf8_lossy(&out).into_owned(), answer)
    }

    #[test]
    fn a_tool_call_shows_what_it_does_and_takes_each_answer() {
        let (shown, once) = answer(tool_call(), "o\n");
        for part in [
            "`write`",
            "destructiveHint",
            "/tmp/a",
            "rule r-1",
            "CHANGED description",
        ] {
            assert!(shown.contains(part), "{part} is shown: {shown}");
        }
        assert_eq!(
            once,
            Answer::Allow {
                scope: Scope::Once,
                arguments: None,
                covers: None
            }
        );
        assert_eq!(
            answer(tool_call(), "t\n30\n\n").1,
            Answer::Allow {
                scope: Scope::For { minutes: 30 },
                arguments: None,
                covers: Some(Covers::These)
            }
        );
        assert_eq!(
            answer(tool_call(), "e\n{\"path\": \"/tmp/b\"}\n").1,
            Answer::Allow {
                scope: Scope::Once,
                arguments: Some(json!({"path": "/tmp/b"})),
                covers: None
            }
        );
        assert_eq!(
            answer(tool_call(), "\nnot today\n").1,
            Answer::Deny {
                reason: Some("not today".into())
            },
            "deny is the default"
        );
    }

    #[test]
    fn a_grant_covers_these_arguments_unless_the_person_says_any() {
        let (shown, these) = answer(tool_call(), "s\n\n");
        assert!(
            shown.contains("[t]hese arguments only (default)"),
            "{shown}"
        );
        assert_eq!(
            these,
            Answer::Allow {
                scope: Scope::Session,
                arguments: None,
                covers: Some(Covers::These)
            }
        );
        assert_eq!(
            answer(tool_call(), "s\na\n").1,
            Answer::Allow {
                scope: Scope::Session,
                arguments: None,
                covers: Some(Covers::Any)
            },
            "any arguments is the person's explicit choice"
        );
    }

    #[test]
    fn always_is_not_offered_where_a_rule_could_not_decide() {
        let mut question = tool_call();
        if let Question::ToolCall { always_offered, .. } = &mut question {
            *always_offered = false;
        }
        let (shown, typed_a) = answer(question, "a\n\n");
        assert!(!shown.contains("[a]lways"), "{shown}");
        assert_eq!(
            typed_a,
            Answer::Deny { reason: None },
            "an `a` there is no answer, so the default (deny) holds"
        );
    }

    #[test]
    fn a_request_that_no_longer_waits_is_not_asked() {
        let approvals = Approvals::new(
            gatehouse_host::EventBus::default(),
            std::time::Duration::from_secs(30),
        );
        approvals.set_attended(true);
        let mut out = Vec::new();
        put(
            &approvals,
            &pending(tool_call()),
            &AskingNow::default(),
            &mut "o\n".as_bytes(),
            &mut out,
        );
        assert!(
            out.is_empty(),
            "a request withdrawn before its turn is not put to the person: {}",
            String::from_utf8_lossy(&out)
        );
    }

    #[test]
    fn a_sampling_request_shows_the_messages_and_takes_the_typed_reply() {
        let params = json!({"systemPrompt": "Be brief", "maxTokens": 10,
            "messages": [{"role": "user", "content": {"type": "text", "text": "Say hi"}}]});
        let question = || Question::Sampling {
            params: params.clone(),
        };
        let (shown, reply) = answer(question(), "hello there\n");
        assert!(
            shown.contains("Be brief") && shown.contains("user: Say hi"),
            "{shown}"
        );
        assert_eq!(
            reply,
            Answer::Respond {
                text: "hello there".into()
            }
        );
        assert_eq!(answer(question(), "\n").1, Answer::Deny { reason: None });
    }
}
