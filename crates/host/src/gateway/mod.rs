//! The gateway: Gatehouse as the one MCP server the person's agents talk to. An agent's session
//! ([`session`]) serves the tools of every connected server under names that stay valid and
//! route back ([`names`], [`tools`]), and tells it when they change ([`changes`]); each request passes the gate with source `gateway` and the
//! client's name. It sits above `host` and below `control`, whose socket carries an agent's
//! messages from `gatehouse mcp`. The same sessions are served over Streamable HTTP ([`http`])
//! to the [`clients`] the person named, each with its own token. Each client is served what its
//! [`profiles`] allow (kept by [`profile_store`]; what they hide is refused by [`visibility`]),
//! within its limits (`oversight::client_limits`).

mod agent_call;
mod changes;
pub mod client_view;
pub mod clients;
mod completion;
pub(crate) mod handshake;
pub mod http;
mod input_required;
mod input_rounds;
mod listen;
pub(crate) mod modern;
pub mod names;
mod notices;
mod pages;
pub mod profile_change;
pub mod profile_store;
pub mod profiles;
mod prompts;
mod relay;
mod replies;
mod resources;
mod running;
mod servers;
pub mod session;
mod task_entry;
mod task_follow;
pub(crate) mod task_handles;
mod task_inputs;
mod tasks;
mod tools;
mod visibility;
