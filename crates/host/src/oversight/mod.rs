//! Oversight, on every request's path to a server: the [`gate`] every request passes, the
//! [`policy`] that decides, the [`approvals`] queue where the person is asked, and the tamper-
//! evident [`audit`] log of all of it.

pub mod approvals;
pub mod audit;
pub mod gate;
pub mod policy;
