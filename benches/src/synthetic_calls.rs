//! The synthetic tool calls the audit section fills its log with: a fixed pseudo-random
//! sequence (xorshift64*) of calls shaped as the gate records them (request, decision and, when
//! allowed, outcome; arguments with a path and a query, a text result), over 20 servers with 10
//! tools each, with words drawn from a 3,000-word vocabulary with a skewed distribution, so some
//! are in most rows and some in few, as in real text. Every run builds the same log, and the
//! queries timed against it draw their words, servers and tools from the same sequence.

use gatehouse_host::{AuditEvent, AuditKind};
use serde_json::json;

/// The servers the calls are made to.
pub(crate) const SERVERS: [&str; 20] = [
    "filesystem",
    "github",
    "memory",
    "fetch",
    "git",
    "postgres",
    "sqlite",
    "slack",
    "brave-search",
    "puppeteer",
    "everything",
    "time",
    "sentry",
    "linear",
    "notion",
    "jira",
    "gdrive",
    "docker",
    "kubernetes",
    "playwright",
];
const VERBS: [&str; 10] = [
    "read", "write", "list", "search", "create", "update", "delete", "get", "run", "fetch",
];
const OBJECTS: [&str; 10] = [
    "file", "issue", "entity", "page", "commit", "query", "message", "result", "item", "record",
];
const SYLLABLES: [&str; 16] = [
    "ka", "lo", "mi", "ne", "ru", "ta", "vi", "so", "pe", "du", "ga", "ri", "fo", "be", "zu", "ha",
];
const VOCABULARY: usize = 3_000;
const SOURCES: [(&str, u32); 4] = [("user", 70), ("model", 20), ("app", 7), ("server", 3)];

/// The fixed pseudo-random sequence of synthetic calls (xorshift64*).
pub(crate) struct Synthetic {
    state: u64,
    calls: u64,
    words: Vec<String>,
}

impl Synthetic {
    pub(crate) fn new() -> Self {
        let words = (0..VOCABULARY)
            .map(|i| {
                // 2 syllables for the first 256 words, 3 for the rest: all distinct.
                let (n, syllables) = if i < 256 { (i, 2) } else { (i - 256, 3) };
                (0..syllables)
                    .map(|k| SYLLABLES[(n >> (4 * k)) & 15])
                    .collect::<String>()
            })
            .collect();
        Synthetic {
            state: 0x9E37_79B9_7F4A_7C15,
            calls: 0,
            words,
        }
    }

    fn next(&mut self) -> u64 {
        let mut x = self.state;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.state = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % u64::try_from(n).unwrap_or(1).max(1)).unwrap_or(0)
    }

    /// Skewed towards the front of `0..n`: the cube of a uniform fraction.
    fn skewed(&mut self, n: usize) -> usize {
        let u = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        ((u * u * u) * n as f64) as usize % n.max(1)
    }

    pub(crate) fn word(&mut self) -> String {
        let i = self.skewed(VOCABULARY);
        self.words.get(i).cloned().unwrap_or_default()
    }

    fn words(&mut self, n: usize) -> String {
        (0..n).map(|_| self.word()).collect::<Vec<_>>().join(" ")
    }

    pub(crate) fn server(&mut self) -> usize {
        self.skewed(SERVERS.len())
    }

    pub(crate) fn tool(&mut self, server: usize) -> String {
        format!(
            "{}_{}",
            VERBS[self.below(VERBS.len())],
            OBJECTS[server % OBJECTS.len()]
        )
    }

    pub(crate) fn source(&mut self) -> &'static str {
        let mut pick = self.below(100);
        for (source, share) in SOURCES {
            let share = share as usize;
            if pick < share {
                return source;
            }
            pick -= share;
        }
        "user"
    }

    /// A hex string of 64 digits that is the same for the same (server, tool).
    fn definition_hash(server: usize, tool: &str) -> String {
        let mut h: u64 = 0xCBF2_9CE4_8422_2325 ^ server as u64;
        for b in tool.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3);
        }
        (0..4)
            .map(|k| format!("{:016x}", h.rotate_left(16 * k)))
            .collect()
    }

    /// Appends one synthetic call's rows to `events`: request and decision, and the outcome
    /// when it was allowed.
    pub(crate) fn call(&mut self, events: &mut Vec<AuditEvent>) {
        self.calls += 1;
        let server = self.server();
        let tool = self.tool(server);
        let source = self.source();
        let allowed = self.below(10) != 0;
        let base = AuditEvent {
            server: Some(SERVERS[server].to_owned()),
            source: Some(source.to_owned()),
            method: Some("tools/call".into()),
            tool: Some(tool.clone()),
            correlation: Some(format!("{:016x}-{:016x}", self.next(), self.calls)),
            transport: Some("stdio".into()),
            ..AuditEvent::default()
        };
        let path = format!("/home/user/projects/{}/{}.txt", self.word(), self.word());
        let rule = format!("r-{:08x}", server * 16 + self.below(4));
        events.push(AuditEvent {
            kind: AuditKind::RequestReceived,
            detail: json!({
                "arguments": {"path": path, "query": self.words(3)},
                "definitionHash": Self::definition_hash(server, &tool),
                "annotations": null,
            }),
            ..base.clone()
        });
        events.push(AuditEvent {
            kind: AuditKind::Decision,
            decision: Some(if allowed { "allow" } else { "deny" }.into()),
            detail: json!({
                "reason": if allowed { "allowed by a rule for the tool" } else { "denied by a rule for the tool" },
                "rule": rule,
            }),
            ..base.clone()
        });
        if allowed {
            let failed = self.below(20) == 0;
            events.push(AuditEvent {
                kind: AuditKind::CallFinished,
                error_type: failed.then(|| "tool_error".to_owned()),
                duration_ms: Some(u64::try_from(self.below(500)).unwrap_or(0)),
                detail: json!({
                    "isError": failed,
                    "content": [{"type": "text", "text": self.words(6)}],
                    "structuredContent": null,
                    "schemaProblem": null,
                }),
                ..base
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_synthetic_log_is_the_same_every_run_and_shaped_like_the_gates() {
        let mut a = Synthetic::new();
        let mut b = Synthetic::new();
        let (mut first, mut second) = (Vec::new(), Vec::new());
        for _ in 0..50 {
            a.call(&mut first);
            b.call(&mut second);
        }
        assert_eq!(first, second, "a fixed sequence");
        assert!(
            first.len() > 100 && first.len() <= 150,
            "2 or 3 rows a call"
        );
        let kinds: Vec<AuditKind> = first.iter().take(2).map(|e| e.kind).collect();
        assert_eq!(kinds, [AuditKind::RequestReceived, AuditKind::Decision]);
        let distinct: std::collections::HashSet<&String> = a.words.iter().collect();
        assert_eq!(distinct.len(), VOCABULARY, "every word distinct");
    }
}
