//! Pause all agents: while paused, every request from the gateway (an agent, `Source::Gateway`)
//! that the policy would let through is put to the person instead. Allow rules and standing
//! grants do not speak for it; deny rules still deny; a request nobody can be asked about is
//! refused as any unanswered question is. The person's own requests, an MCP App's and the
//! servers' are not concerned. The switch is the gate's (clones share it), held in memory by the
//! engine that serves the agents; [`crate::Host::set_agents_paused`] puts each change on record.

use std::sync::atomic::Ordering;

use super::state::Gate;
use crate::oversight::policy::{Effect, Verdict};
use crate::vocabulary::request::{GateRequest, Source};

impl Gate {
    /// Whether the agents are paused.
    pub fn agents_paused(&self) -> bool {
        self.agents_paused.load(Ordering::SeqCst)
    }

    /// Pauses or resumes the agents; whether that changed anything.
    pub fn set_agents_paused(&self, paused: bool) -> bool {
        self.agents_paused.swap(paused, Ordering::SeqCst) != paused
    }

    /// `verdict` as it stands while the agents are paused, and whether the pause holds the
    /// request (then no grant may answer for it): an agent's request the policy allows or asks
    /// about is asked, its reason saying why.
    pub(super) fn held_if_paused(
        &self,
        request: &GateRequest,
        verdict: Verdict,
    ) -> (Verdict, bool) {
        if request.source != Source::Gateway
            || verdict.effect == Effect::Deny
            || !self.agents_paused()
        {
            return (verdict, false);
        }
        let reason = format!(
            "all agents are paused, so each of their requests is asked about (`gatehouse agents \
             resume` lets them go on); without the pause: {}",
            verdict.reason
        );
        let held = Verdict {
            effect: Effect::Ask,
            reason,
            ..verdict
        };
        (held, true)
    }
}
