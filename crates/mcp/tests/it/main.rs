//! The integration tests of `gatehouse-mcp`, built as one test binary: each file below was its
//! own binary before, and linking each against the crate and its dependencies made the test
//! build several times slower than compiling them together. `support` is what the files share.
//! They run as threads of one process, so none of them may change process-wide state (the
//! environment, the current directory, signal handlers) or count what the process holds.

mod support;

mod base_rules;
mod bounds;
mod dropped_clients;
mod features;
mod fuzz_properties;
mod http;
mod http_faults;
mod http_features;
mod malformed_responses;
mod modern_rules;
mod oauth;
mod python;
mod python_modern;
mod reference_servers;
mod secret_config;
mod stdio;
mod tasks;
mod tool_calls;
mod ts_sdk_v2;
mod ts_sdk_v2_listen;
mod ts_sdk_v2_tasks;
