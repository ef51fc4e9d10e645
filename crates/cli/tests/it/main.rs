//! The integration tests of `gatehouse-cli`, built as one test binary: each file below was its
//! own binary before, and linking each against the engine and its dependencies made the test
//! build several times slower than compiling them together. `support` is what the files share.
//! The tests run the `gatehouse` binary as a child process each; they run as threads of one
//! process themselves, so none of them may change process-wide state (the environment, the
//! current directory, signal handlers): a run that needs another environment gives it to the
//! child.

mod support;

mod agents;
mod agents_pause;
mod app_sites;
mod approvals;
mod approvals_watch;
mod audit;
mod audit_calls;
mod audit_keyed;
mod audit_retention;
mod audit_writers;
mod auth;
mod autostart;
mod call;
mod cli;
mod connect;
mod connect_gemini;
mod demo_server;
mod elicitation;
mod engine;
mod engine_commands;
mod engine_faults;
mod engine_lifecycle;
mod gateway;
mod gateway_apps;
mod gateway_era26;
mod gateway_faults;
mod gateway_http;
mod gateway_http_streams;
mod gateway_mrtr;
mod gateway_mrtr_upstream;
mod gateway_policy;
mod gateway_profiles;
mod gateway_related_requests;
mod gateway_relay;
mod gateway_tasks;
mod gateway_tasks_ext;
mod import;
mod info_era;
mod logs;
mod output_limits;
mod path_rules;
mod policy;
mod rejected_tools;
mod roots;
mod server_env;
mod server_features;
mod settings;
mod stderr_secrets;
mod storage;
mod terminal_text;
mod watch;
