//! One round of a server's input requests (basic/patterns/mrtr, "InputRequiredResult") as the
//! handler answering them sees it: each request is answered inside a scope naming the key the
//! server gave it and the round it came in ([`current`]), so that a handler passing requests on
//! to someone else (Gatehouse's gateway, to a 2026-07-28 agent) can put them under the same
//! keys and all at once: it waits until every request of the round has either reached it or
//! been answered elsewhere ([`InputRound::settled`]).

use std::sync::Arc;

use tokio::sync::watch;

tokio::task_local! {
    static ASKED: InputKey;
}

/// The key of the input request being answered, and its round.
#[derive(Debug, Clone)]
pub struct InputKey {
    pub key: String,
    pub round: Arc<InputRound>,
}

/// The input requests of one `InputRequiredResult`: how many, and how many are answered.
#[derive(Debug)]
pub struct InputRound {
    total: usize,
    settled: watch::Sender<usize>,
}

impl InputRound {
    pub fn new(total: usize) -> Self {
        InputRound {
            total,
            settled: watch::Sender::new(0),
        }
    }

    /// How many requests the round has.
    pub fn total(&self) -> usize {
        self.total
    }

    /// How many of them have their answer (or error).
    pub fn settled(&self) -> usize {
        *self.settled.borrow()
    }

    /// Told of each request answered from now on.
    pub fn watch(&self) -> watch::Receiver<usize> {
        self.settled.subscribe()
    }

    /// Counts one more request answered (done by the scope each is answered in).
    pub fn settle(&self) {
        self.settled.send_modify(|n| *n += 1);
    }
}

/// The input request being answered by the current future, if it is one.
pub fn current() -> Option<InputKey> {
    ASKED.try_with(Clone::clone).ok()
}

/// Runs `answer` as the answer to the input request `key` of `round`, settling it when done.
pub(crate) async fn answering<T>(
    key: &str,
    round: &Arc<InputRound>,
    answer: impl Future<Output = T>,
) -> T {
    let asked = InputKey {
        key: key.to_owned(),
        round: round.clone(),
    };
    let answered = ASKED.scope(asked, answer).await;
    round.settle();
    answered
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_request_knows_its_key_and_round_and_settles_when_answered() {
        let round = Arc::new(InputRound::new(2));
        assert!(current().is_none(), "outside any input request");
        let mut settled = round.watch();
        let key = answering("user_name", &round, async {
            current().map(|asked| (asked.key, asked.round.total()))
        })
        .await;
        assert_eq!(key, Some(("user_name".to_owned(), 2)));
        settled.changed().await.expect("told of the answer");
        assert_eq!(round.settled(), 1);
    }
}
