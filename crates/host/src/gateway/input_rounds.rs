//! How the server's requests waiting for a 2026-07-28 agent (`input_required`) are keyed and
//! grouped: a 2026-07-28 server's input request keeps the key the server gave it, and its round
//! (basic/patterns/mrtr, one `InputRequiredResult`) is put to the agent whole, once each of its
//! requests is either waiting here or answered elsewhere (the person, or refused by the gate);
//! a legacy server's request gets the next `rN`.

use std::sync::Arc;

use tokio::sync::watch;

use crate::oversight::gate::parked_calls::{Asked, Parked};

/// Puts a server's request among those waiting for the agent: under the key the server gave it
/// (a 2026-07-28 server's input request), unless taken; else under the next `rN`.
pub fn add(call: &mut Parked, asked: Asked) {
    let taken = |key: &str| call.waiting.iter().any(|(k, _)| k == key);
    let key = match asked.from.as_ref().map(|from| from.key.as_str()) {
        Some(key) if !taken(key) => key.to_owned(),
        _ => loop {
            let key = format!("r{}", call.next_key);
            call.next_key += 1;
            if !taken(&key) {
                break key;
            }
        },
    };
    call.waiting.push((key, asked));
}

/// A server's round some of whose requests are neither waiting for the agent nor answered yet,
/// watched for its next answer (subscribed before counting, so no answer goes unseen).
pub fn incomplete_round(call: &Parked) -> Option<watch::Receiver<usize>> {
    call.waiting.iter().find_map(|(_, asked)| {
        let round = &asked.from.as_ref()?.round;
        let watching = round.watch();
        let here = call
            .waiting
            .iter()
            .filter(|(_, other)| {
                other
                    .from
                    .as_ref()
                    .is_some_and(|from| Arc::ptr_eq(&from.round, round))
            })
            .count();
        (here + round.settled() < round.total()).then_some(watching)
    })
}

/// Completes when the watched round has one more answer (never, without one to watch).
pub async fn settling(round: Option<&mut watch::Receiver<usize>>) {
    if let Some(round) = round
        && round.changed().await.is_ok()
    {
        return;
    }
    std::future::pending().await
}

#[cfg(test)]
mod tests {
    use gatehouse_mcp::features::input_round::{InputKey, InputRound};
    use tokio::sync::{mpsc, oneshot};

    use super::*;
    use crate::oversight::gate::parked_calls::CancelOnDrop;

    fn call() -> Parked {
        let (_done, outcome) = oneshot::channel();
        let (_ask, asks) = mpsc::channel(1);
        let (_note, notes) = mpsc::channel(1);
        Parked {
            client: "agent".to_owned(),
            request: "tools/call t".to_owned(),
            outcome,
            asks,
            notes,
            waiting: Vec::new(),
            next_key: 1,
            _cancel: CancelOnDrop(watch::channel(false).0),
        }
    }

    fn asked(from: Option<(&str, &Arc<InputRound>)>) -> Asked {
        Asked {
            method: "sampling/createMessage".to_owned(),
            params: None,
            answer: oneshot::channel().0,
            from: from.map(|(key, round)| InputKey {
                key: key.to_owned(),
                round: round.clone(),
            }),
        }
    }

    #[test]
    fn a_servers_keys_are_kept_unless_taken_and_its_round_waits_until_whole() {
        let round = Arc::new(InputRound::new(3));
        let mut call = call();
        add(&mut call, asked(None));
        add(&mut call, asked(Some(("user_name", &round))));
        assert!(
            incomplete_round(&call).is_some(),
            "two of the round's three are neither here nor answered"
        );
        add(&mut call, asked(Some(("r1", &round))));
        let keys: Vec<&str> = call.waiting.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            keys,
            ["r1", "user_name", "r2"],
            "a taken key gets the next rN"
        );
        assert!(
            incomplete_round(&call).is_some(),
            "the third is still on its way"
        );
        round.settle();
        assert!(
            incomplete_round(&call).is_none(),
            "two here and one answered by the person: the round is whole"
        );
    }
}
