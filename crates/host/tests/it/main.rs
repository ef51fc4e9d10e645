//! The integration tests of `gatehouse-host`, built as one test binary: each file below was its
//! own binary before, and linking each against the engine and its dependencies made the test
//! build several times slower than compiling them together. `support` is what the files share.
//!
//! The tests run as threads of one process, so none of them may change process-wide state (the
//! environment, the current directory, signal handlers) or measure the process as a whole. A
//! test that needs a process of its own runs this binary again as a child with `--exact` and
//! its full path (`audit_crash::call_echo_until_killed`): `supervision`, `audit`,
//! `audit_crash`, `keyring_unavailable` (a broken keyring in the child's environment) and
//! `fault_flood` (the peak memory of a process that runs nothing else).

mod support;

mod agent_connect;
mod agent_import;
mod agents;
mod agents_pause;
mod app_site_limit;
mod approvals;
mod apps;
mod apps_hostile;
mod audit;
mod audit_checkpoint;
mod audit_crash;
mod audit_keyed;
mod audit_retention;
mod audit_search;
mod audit_tokens;
mod client_rules;
mod enterprise_auth;
mod eras;
mod fault_flood;
mod fault_utf8;
mod gate;
mod gateway_http_state;
mod gateway_presence;
mod gateway_routing;
mod grants;
mod health;
mod hot_reload;
mod http_reconnect;
mod keyring_unavailable;
mod loopback_prompt;
mod oauth_secrets;
mod oversight_queries;
mod path_rules;
mod registry;
mod resources_prompts;
mod roots;
mod secrets;
mod server_icons;
mod server_requests;
mod sessions;
mod settings;
mod sign_in;
mod supervision;
mod tasks;
mod traffic;
mod upgrade;
