//! Oversight, on every request's path to a server: the [`gate`] every request passes, the
//! [`policy`] that decides, the [`approvals`] queue where the person is asked, and the tamper-
//! evident [`audit`] log of all of it; and each gateway client's share of the engine
//! ([`client_limits`]).

pub mod approvals;
pub mod audit;
pub mod client_limits;
pub mod client_presence;
pub mod client_tasks;
pub mod gate;
pub mod policy;
pub mod task_ends;
pub mod task_input_slots;
