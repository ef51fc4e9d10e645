//! The requests an agent's session has running, polled on the session's own task beside its
//! reader (an agent's sequential calls then stay on one worker instead of waking a task each).
//!
//! A `FuturesUnordered` whose wake-ups during its own poll do not wake the session's task.
//! Tokio takes a task woken while it is being polled for one that yields: it puts it at the back
//! of the run queue and wakes the other worker for it, a futex wake and a context switch on a
//! 2-core machine (see docs/performance.md). Two such wake-ups came with every request: the
//! set's own yield after a poll in which it polled every future (futures-util 0.3, against
//! starving other tasks), and a request's inner futures closing one another's channels as the
//! request ends (a call and the recorder of its task statuses), which wakes the request, and
//! through it the set's task, in the very poll that ends it. Here the set is polled with a waker
//! of its own ([`Relay`]): woken while the set is being polled, it marks the set to be polled
//! again at once, at most [`REPOLLS`] times (after that the session's task yields for real, as
//! the set wanted); woken at any other time, it wakes the session's task.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::task::{Context, Poll, Wake, Waker};

use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;
use futures_util::task::AtomicWaker;

type Request = Pin<Box<dyn Future<Output = ()> + Send>>;

/// How many times in a row the set is polled again because it was woken while polled.
const REPOLLS: usize = 4;

/// The set's waker: the session's task, unless the set is being polled.
struct Relay {
    session: AtomicWaker,
    state: AtomicU8,
}

const IDLE: u8 = 0;
const POLLING: u8 = 1;
const POLLING_WOKEN: u8 = 2;

impl Wake for Relay {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        // One atomic step decides: either the poll still runs and will see the mark, or it has
        // ended and the session's task is woken.
        let marked = self
            .state
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |state| {
                (state != IDLE).then_some(POLLING_WOKEN)
            });
        if marked.is_err() {
            self.session.wake();
        }
    }
}

/// The running requests.
pub(super) struct Running {
    set: FuturesUnordered<Request>,
    relay: Arc<Relay>,
    waker: Waker,
}

impl Running {
    pub fn new() -> Running {
        let relay = Arc::new(Relay {
            session: AtomicWaker::new(),
            state: AtomicU8::new(IDLE),
        });
        Running {
            set: FuturesUnordered::new(),
            waker: Waker::from(relay.clone()),
            relay,
        }
    }

    pub fn push(&mut self, request: Request) {
        self.set.push(request);
    }

    /// Whether no request runs.
    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }

    /// Resolves when a request ended; never while none runs. The caller polls again after
    /// each (what was woken meanwhile waits in the set's queue).
    pub async fn next(&mut self) {
        std::future::poll_fn(|cx| self.poll_next(cx)).await;
    }

    fn poll_next(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        if self.set.is_empty() {
            return Poll::Pending;
        }
        self.relay.session.register(cx.waker());
        for _ in 0..REPOLLS {
            self.relay.state.store(POLLING, Ordering::Release);
            let polled = self
                .set
                .poll_next_unpin(&mut Context::from_waker(&self.waker));
            let state = self.relay.state.swap(IDLE, Ordering::AcqRel);
            if polled.is_ready() {
                return Poll::Ready(());
            }
            if state != POLLING_WOKEN {
                return Poll::Pending;
            }
        }
        // Woken in every pass: a request keeps yielding, so the session's task yields too.
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicUsize;

    use tokio::sync::{mpsc, oneshot};

    use super::*;

    /// Counts the wake-ups of the task polling the set.
    #[derive(Default)]
    struct Wakes(AtomicUsize);

    impl Wake for Wakes {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn counted() -> (Arc<Wakes>, Waker) {
        let wakes = Arc::new(Wakes::default());
        let waker = Waker::from(wakes.clone());
        (wakes, waker)
    }

    fn woken(wakes: &Wakes) -> usize {
        wakes.0.load(Ordering::SeqCst)
    }

    /// A request as a gated call is: the call, and a recorder of what it reports on a channel
    /// whose sender the call drops as it ends.
    fn call_with_recorder(went: oneshot::Receiver<()>) -> Request {
        Box::pin(async move {
            let (reports, mut reported) = mpsc::channel::<()>(1);
            let call = async move {
                let _ = went.await;
                drop(reports);
            };
            let recorder = async move { while reported.recv().await.is_some() {} };
            tokio::join!(biased; call, recorder);
        })
    }

    #[test]
    fn a_request_ending_wakes_the_session_once_and_not_during_its_own_poll() {
        let (wakes, waker) = counted();
        let mut cx = Context::from_waker(&waker);
        let mut running = Running::new();
        assert!(running.is_empty());
        let (go, went) = oneshot::channel::<()>();
        running.push(call_with_recorder(went));
        assert!(running.poll_next(&mut cx).is_pending());
        assert_eq!(
            woken(&wakes),
            0,
            "polling a request that waits wakes nobody"
        );
        let _ = go.send(());
        assert_eq!(woken(&wakes), 1, "the server's answer wakes the session");
        assert!(running.poll_next(&mut cx).is_ready(), "the request ended");
        assert_eq!(
            woken(&wakes),
            1,
            "its recorder's channel closing in that same poll woke nobody"
        );
        assert!(running.is_empty());
    }

    #[test]
    fn a_plain_set_would_have_woken_the_session_in_its_own_poll() {
        // What the relay works around: if futures-util stops waking its task this way, this
        // test says so.
        let (wakes, waker) = counted();
        let mut cx = Context::from_waker(&waker);
        let mut set: FuturesUnordered<Request> = FuturesUnordered::new();
        let (go, went) = oneshot::channel::<()>();
        set.push(call_with_recorder(went));
        assert!(set.poll_next_unpin(&mut cx).is_pending());
        assert_eq!(woken(&wakes), 1, "the yield after every future was polled");
        let _ = go.send(());
        assert_eq!(woken(&wakes), 2);
        assert!(set.poll_next_unpin(&mut cx).is_ready());
        assert_eq!(woken(&wakes), 3, "the recorder's channel closing");
    }

    #[test]
    fn a_request_that_keeps_yielding_makes_the_session_yield() {
        let (wakes, waker) = counted();
        let mut cx = Context::from_waker(&waker);
        let mut running = Running::new();
        running.push(Box::pin(async {
            loop {
                tokio::task::yield_now().await;
            }
        }));
        assert!(running.poll_next(&mut cx).is_pending());
        assert_eq!(
            woken(&wakes),
            1,
            "polled again at most {REPOLLS} times, then yields"
        );
    }

    #[test]
    fn a_wake_after_the_poll_reaches_the_session() {
        let (wakes, waker) = counted();
        let mut cx = Context::from_waker(&waker);
        let mut running = Running::new();
        let (go, went) = oneshot::channel::<()>();
        running.push(Box::pin(async move {
            let _ = went.await;
        }));
        assert!(running.poll_next(&mut cx).is_pending());
        std::thread::spawn(move || go.send(()))
            .join()
            .expect("sent from another thread")
            .expect("sent");
        assert_eq!(woken(&wakes), 1);
        assert!(running.poll_next(&mut cx).is_ready());
    }
}
