//! What the tray menu says, as plain data: the requests waiting for the person (how many, and the
//! newest few, each opening its dialog), the servers connected and failing, the agents
//! attached, Open, Pause all agents and Quit. `tray` turns it into the OS menu.

use gatehouse_host::approvals::{PendingApproval, Question};
use gatehouse_host::{ServerStatus, Source};

/// How many waiting requests the menu names; the rest are counted.
pub const NEWEST_SHOWN: usize = 5;
/// The longest a request's line gets, in characters.
const LINE_CHARS: usize = 60;

/// Menu item ids (a waiting request's is `APPROVAL_PREFIX` + its id).
pub const OPEN: &str = "open";
pub const PAUSE: &str = "pause";
pub const QUIT: &str = "quit";
pub const APPROVAL_PREFIX: &str = "approval:";

/// What the menu is made from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TrayState {
    /// The waiting requests, oldest first (as the engine lists them).
    pub pending: Vec<PendingLine>,
    pub servers_connected: usize,
    pub servers_failing: usize,
    pub agents_connected: usize,
    pub agents_paused: bool,
}

/// One waiting request, as the menu names it.
#[derive(Debug, Clone, PartialEq)]
pub struct PendingLine {
    pub id: String,
    pub label: String,
}

/// One entry of the menu.
#[derive(Debug, Clone, PartialEq)]
pub enum TrayItem {
    /// A line that says something and does nothing.
    Info(String),
    /// A waiting request: opens the window on its dialog.
    Approval {
        id: String,
        label: String,
    },
    Separator,
    Open,
    Pause {
        paused: bool,
    },
    Quit,
}

impl TrayItem {
    /// The item's menu id (info lines and separators have none of their own).
    pub fn id(&self) -> Option<String> {
        match self {
            TrayItem::Approval { id, .. } => Some(format!("{APPROVAL_PREFIX}{id}")),
            TrayItem::Open => Some(OPEN.to_owned()),
            TrayItem::Pause { .. } => Some(PAUSE.to_owned()),
            TrayItem::Quit => Some(QUIT.to_owned()),
            TrayItem::Info(_) | TrayItem::Separator => None,
        }
    }
}

/// The menu for `state`, top to bottom.
pub fn items(state: &TrayState) -> Vec<TrayItem> {
    let mut items = Vec::new();
    let waiting = state.pending.len();
    items.push(TrayItem::Info(match waiting {
        0 => "Nothing waits for you".to_owned(),
        1 => "1 request waits for you".to_owned(),
        n => format!("{n} requests wait for you"),
    }));
    for line in state.pending.iter().rev().take(NEWEST_SHOWN) {
        items.push(TrayItem::Approval {
            id: line.id.clone(),
            label: line.label.clone(),
        });
    }
    if waiting > NEWEST_SHOWN {
        items.push(TrayItem::Info(format!(
            "and {} more",
            waiting - NEWEST_SHOWN
        )));
    }
    items.push(TrayItem::Separator);
    let mut servers = format!("{} connected", plural(state.servers_connected, "server"));
    if state.servers_failing > 0 {
        servers.push_str(&format!(", {} failing", state.servers_failing));
    }
    items.push(TrayItem::Info(servers));
    items.push(TrayItem::Info(if state.agents_paused {
        format!(
            "{} connected (paused)",
            plural(state.agents_connected, "agent")
        )
    } else {
        format!("{} connected", plural(state.agents_connected, "agent"))
    }));
    items.push(TrayItem::Separator);
    items.push(TrayItem::Open);
    items.push(TrayItem::Pause {
        paused: state.agents_paused,
    });
    items.push(TrayItem::Separator);
    items.push(TrayItem::Quit);
    items
}

/// The menu's line for a waiting request: who asks, and what.
pub fn pending_line(pending: &PendingApproval) -> PendingLine {
    let who = asker(pending);
    let what = match &pending.question {
        Question::ToolCall { tool, .. } => format!("{tool} on {}", pending.server),
        Question::Sampling { .. } => "a model's reply".to_owned(),
        Question::Elicitation { .. } => "your input".to_owned(),
        Question::OpenUrl { domain, .. } => format!("open {domain}"),
        Question::Request { method, .. } => method.clone(),
    };
    PendingLine {
        id: pending.id.clone(),
        label: shorten(&format!("{who}: {what}")),
    }
}

/// Who asks, in words: the agent (by its client name), the gatehouse CLI, an app view, the
/// server itself, or the person's own window.
pub fn asker(pending: &PendingApproval) -> String {
    let caller = pending.caller.as_deref();
    match pending.source {
        Source::Gateway => caller.unwrap_or("An agent").to_owned(),
        Source::User if caller == Some("cli") => "The gatehouse CLI".to_owned(),
        Source::User => "You".to_owned(),
        Source::App => format!("An app view of {}", pending.server),
        Source::Server => pending.server.clone(),
        Source::Model => "A model".to_owned(),
    }
}

/// Whether a server's status counts as connected, failing, or neither (disabled, stopped,
/// on its way).
pub fn server_tally(status: &ServerStatus) -> (bool, bool) {
    match status {
        ServerStatus::Connected { .. } | ServerStatus::Degraded { .. } => (true, false),
        ServerStatus::Failed { .. }
        | ServerStatus::Crashed { .. }
        | ServerStatus::Restarting { .. }
        | ServerStatus::Reconnecting { .. }
        | ServerStatus::AuthRequired { .. } => (false, true),
        _ => (false, false),
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// At most `LINE_CHARS` characters, with an ellipsis when cut; control characters (a server
/// names its own tools) become spaces.
fn shorten(text: &str) -> String {
    let clean: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if clean.chars().count() <= LINE_CHARS {
        return clean;
    }
    let mut cut: String = clean.chars().take(LINE_CHARS - 1).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(n: usize) -> PendingLine {
        PendingLine {
            id: format!("a{n}"),
            label: format!("request {n}"),
        }
    }

    #[test]
    fn an_idle_menu_says_nothing_waits() {
        let items = items(&TrayState::default());
        assert_eq!(items[0], TrayItem::Info("Nothing waits for you".into()));
        assert!(items.contains(&TrayItem::Info("0 servers connected".into())));
        assert!(items.contains(&TrayItem::Info("0 agents connected".into())));
        assert!(items.contains(&TrayItem::Pause { paused: false }));
        assert_eq!(items.last(), Some(&TrayItem::Quit));
    }

    #[test]
    fn names_the_newest_few_and_counts_the_rest() {
        let state = TrayState {
            pending: (1..=8).map(line).collect(),
            servers_connected: 3,
            servers_failing: 1,
            agents_connected: 1,
            agents_paused: true,
        };
        let items = items(&state);
        assert_eq!(items[0], TrayItem::Info("8 requests wait for you".into()));
        let named: Vec<_> = items
            .iter()
            .filter_map(|i| match i {
                TrayItem::Approval { id, .. } => Some(id.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(named, ["a8", "a7", "a6", "a5", "a4"], "newest first");
        assert!(items.contains(&TrayItem::Info("and 3 more".into())));
        assert!(items.contains(&TrayItem::Info("3 servers connected, 1 failing".into())));
        assert!(items.contains(&TrayItem::Info("1 agent connected (paused)".into())));
        assert!(items.contains(&TrayItem::Pause { paused: true }));
        assert_eq!(
            items[1].id().as_deref(),
            Some("approval:a8"),
            "a request's item opens its dialog"
        );
    }

    #[test]
    fn long_or_odd_labels_are_cut_and_cleaned() {
        let text = format!("agent: {}\n", "x".repeat(100));
        let short = shorten(&text);
        assert_eq!(short.chars().count(), LINE_CHARS);
        assert!(short.ends_with('…'));
        assert_eq!(shorten("a\tb"), "a b");
    }
}
