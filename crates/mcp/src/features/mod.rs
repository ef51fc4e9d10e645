//! Typed MCP operations, each an `impl Client` block in its own module. Each one, tools
//! included, first checks that the server declared the capability it needs and fails with
//! `McpError::NotSupported` without sending the request when it did not ([`capabilities`]).

pub mod capabilities;
pub mod completion;
pub mod elicitation;
pub mod elicitation_form;
pub mod input_round;
pub mod kept_lists;
pub mod listener;
pub mod logging;
pub mod mrtr;
pub mod output_schema;
pub mod param_headers;
pub mod ping;
pub mod prompts;
pub mod resources;
pub mod skills;
pub mod subscriptions;
pub mod task;
pub mod task_handles;
pub mod tasks;
pub mod tool_list;
pub mod tools;
