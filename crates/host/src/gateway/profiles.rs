//! A gateway client's profile: which servers it sees, which tools of each, whether resources and
//! prompts are exposed to it, whether the person answers a server's sampling and elicitation
//! the client cannot answer itself, and its limits (requests in flight, requests per minute,
//! message size). A profile holds settings each set or left unset: a client's own settings are laid over
//! the default profile's (the person's, `gatehouse clients profile --default`), whose unset ones
//! are Gatehouse's own (every server, every tool, resources and prompts on, the person asked;
//! the limits below). A
//! server or tool the profile does not name is on, so a server added later is seen.
//!
//! This file is the model and its rules; [`super::profile_change`] is a change to one, and
//! [`super::profile_store`] keeps profiles in SQLite.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use super::profile_change::{
    MIN_MESSAGE_BYTES, ProfileChange, ProfileSetting, ServerSwitch, ToolSwitch,
};
pub use crate::oversight::client_limits::Limits;

/// Requests one client may have running at once, unless its profile says otherwise.
pub const MAX_IN_FLIGHT: u32 = 32;
/// The largest message a client may send, unless its profile says otherwise (the HTTP endpoint's
/// own bound is the same).
pub const MAX_MESSAGE_BYTES: u32 = 4 * 1024 * 1024;

/// A profile's settings, each one set or left to the profile below it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Profile {
    /// Servers turned on or off, by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub servers: BTreeMap<String, bool>,
    /// Tools turned on or off: server name, then tool name (as the server names it).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tools: BTreeMap<String, BTreeMap<String, bool>>,
    /// Whether the servers' resources and resource templates are exposed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<bool>,
    /// Whether the servers' prompts are exposed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompts: Option<bool>,
    /// Whether a server's sampling or elicitation request made during the client's call goes
    /// to the person when the client did not declare the capability (else the server is not
    /// offered it for that call: a 2026-07-28 server refuses a call that needs it with
    /// `MissingRequiredClientCapability`, and an older server's request is refused).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ask_person: Option<bool>,
    /// Requests the client may have running at once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_in_flight: Option<u32>,
    /// Requests the client may make in any 60 seconds; 0 is no limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_minute: Option<u32>,
    /// The largest message the client may send, in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_message_bytes: Option<u32>,
}

/// What one agent is served: the profile that applies to it, and whose it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Served {
    pub client: String,
    /// Whether the client is one Gatehouse knows (else it gets the default profile).
    pub known: bool,
    pub profile: Profile,
    /// Whether every tool and prompt is named `SERVER__NAME` (the client's naming choice; an
    /// agent Gatehouse does not know keeps the prefix).
    pub prefix: bool,
}

impl Served {
    /// What `client` is served now; `None`, with a warning, when its profile cannot be read.
    pub async fn read(host: &crate::host::Host, client: &str) -> Option<std::sync::Arc<Served>> {
        match host.client_profiles().served(client).await {
            Ok(served) => Some(std::sync::Arc::new(served)),
            Err(e) => {
                tracing::warn!("cannot read the profile of gateway client `{client}`: {e}");
                None
            }
        }
    }

    /// The profile's name, for a refusal's reason.
    pub fn profile_name(&self) -> String {
        if self.known {
            format!("the profile of client `{}`", self.client)
        } else {
            format!(
                "the default profile (`{}` is not a client Gatehouse knows)",
                self.client
            )
        }
    }

    /// The command that turns something on, for the client or for the default profile.
    pub fn turn_on(&self, flag: &str) -> String {
        if self.known {
            format!("gatehouse clients profile {} {flag} on", self.client)
        } else {
            format!("gatehouse clients profile --default {flag} on")
        }
    }
}

impl Profile {
    /// This profile's settings laid over `below`'s: each one this profile sets wins.
    pub fn over(&self, below: &Profile) -> Profile {
        let mut merged = below.clone();
        merged.servers.extend(self.servers.clone());
        for (server, tools) in &self.tools {
            merged
                .tools
                .entry(server.clone())
                .or_default()
                .extend(tools.clone());
        }
        merged.resources = self.resources.or(below.resources);
        merged.prompts = self.prompts.or(below.prompts);
        merged.ask_person = self.ask_person.or(below.ask_person);
        merged.max_in_flight = self.max_in_flight.or(below.max_in_flight);
        merged.per_minute = self.per_minute.or(below.per_minute);
        merged.max_message_bytes = self.max_message_bytes.or(below.max_message_bytes);
        merged
    }

    /// The profile with `change` applied (checked by [`ProfileChange::check_limits`] first).
    pub fn with(&self, change: &ProfileChange) -> Profile {
        let mut changed = self.clone();
        for setting in &change.reset {
            changed.forget(setting);
        }
        for switch in &change.servers {
            changed.servers.insert(switch.server.clone(), switch.on);
        }
        for switch in &change.tools {
            changed
                .tools
                .entry(switch.server.clone())
                .or_default()
                .insert(switch.tool.clone(), switch.on);
        }
        changed.resources = change.resources.or(changed.resources);
        changed.prompts = change.prompts.or(changed.prompts);
        changed.ask_person = change.ask_person.or(changed.ask_person);
        changed.max_in_flight = change.max_in_flight.or(changed.max_in_flight);
        changed.per_minute = change.per_minute.or(changed.per_minute);
        changed.max_message_bytes = change.max_message_bytes.or(changed.max_message_bytes);
        changed
    }

    /// Leaves `setting` to the profile below.
    fn forget(&mut self, setting: &ProfileSetting) {
        match setting {
            ProfileSetting::Server { server } => {
                self.servers.remove(server);
            }
            ProfileSetting::Tool { server, tool } => {
                if let Some(tools) = self.tools.get_mut(server) {
                    tools.remove(tool);
                    if tools.is_empty() {
                        self.tools.remove(server);
                    }
                }
            }
            ProfileSetting::Resources => self.resources = None,
            ProfileSetting::Prompts => self.prompts = None,
            ProfileSetting::AskPerson => self.ask_person = None,
            ProfileSetting::Limits => {
                self.max_in_flight = None;
                self.per_minute = None;
                self.max_message_bytes = None;
            }
        }
    }

    /// Whether `other` shows a client the same servers, tools, resources and prompts (its limits
    /// aside): when not, the client's lists changed.
    pub fn shows_the_same(&self, other: &Profile) -> bool {
        self.hidden() == other.hidden()
    }

    /// What the profile hides: servers, tools (server, tool), and whether resources and prompts
    /// are shown.
    fn hidden(&self) -> (Vec<&str>, Vec<(&str, &str)>, bool, bool) {
        let servers = self
            .servers
            .iter()
            .filter(|(_, on)| !**on)
            .map(|(s, _)| s.as_str())
            .collect();
        let tools = self
            .tools
            .iter()
            .flat_map(|(s, tools)| {
                tools
                    .iter()
                    .filter(|(_, on)| !**on)
                    .map(move |(t, _)| (s.as_str(), t.as_str()))
            })
            .collect();
        (
            servers,
            tools,
            self.resources.unwrap_or(true),
            self.prompts.unwrap_or(true),
        )
    }

    /// Whether the client sees `server` at all.
    pub fn sees_server(&self, server: &str) -> bool {
        self.servers.get(server).copied().unwrap_or(true)
    }

    /// Whether the client sees `tool` of `server` (and may call it).
    pub fn sees_tool(&self, server: &str, tool: &str) -> bool {
        self.sees_server(server)
            && self
                .tools
                .get(server)
                .and_then(|tools| tools.get(tool))
                .copied()
                .unwrap_or(true)
    }

    /// Whether the client sees the resources of `server` (and may read them).
    pub fn sees_resources(&self, server: &str) -> bool {
        self.resources.unwrap_or(true) && self.sees_server(server)
    }

    /// Whether the person answers a server's sampling and elicitation that the client cannot.
    pub fn asks_person(&self) -> bool {
        self.ask_person.unwrap_or(true)
    }

    /// Whether the client sees the prompts of `server` (and may get them).
    pub fn sees_prompts(&self, server: &str) -> bool {
        self.prompts.unwrap_or(true) && self.sees_server(server)
    }

    /// The limits, Gatehouse's own where the profile sets none.
    pub fn limits(&self) -> Limits {
        Limits {
            max_in_flight: self.max_in_flight.unwrap_or(MAX_IN_FLIGHT).max(1),
            per_minute: self.per_minute.filter(|n| *n > 0),
            max_message_bytes: self
                .max_message_bytes
                .unwrap_or(MAX_MESSAGE_BYTES)
                .max(MIN_MESSAGE_BYTES),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hide_tool(server: &str, tool: &str) -> ProfileChange {
        ProfileChange {
            tools: vec![ToolSwitch {
                server: server.into(),
                tool: tool.into(),
                on: false,
            }],
            ..ProfileChange::default()
        }
    }

    #[test]
    fn out_of_the_box_everything_is_seen_and_the_limits_are_gatehouses() {
        let profile = Profile::default();
        assert!(profile.sees_tool("fs", "write_file"));
        assert!(profile.sees_resources("fs") && profile.sees_prompts("fs"));
        assert_eq!(
            profile.limits(),
            Limits {
                max_in_flight: MAX_IN_FLIGHT,
                per_minute: None,
                max_message_bytes: MAX_MESSAGE_BYTES
            }
        );
    }

    #[test]
    fn a_hidden_server_hides_its_tools_resources_and_prompts() {
        let profile = Profile::default().with(&ProfileChange {
            servers: vec![ServerSwitch {
                server: "fs".into(),
                on: false,
            }],
            ..ProfileChange::default()
        });
        assert!(!profile.sees_server("fs"));
        assert!(!profile.sees_tool("fs", "read_file"));
        assert!(!profile.sees_resources("fs") && !profile.sees_prompts("fs"));
        assert!(profile.sees_tool("memory", "read_graph"), "other servers");
    }

    #[test]
    fn a_hidden_tool_hides_that_tool_alone() {
        let profile = Profile::default().with(&hide_tool("fs", "write_file"));
        assert!(!profile.sees_tool("fs", "write_file"));
        assert!(profile.sees_tool("fs", "read_file"));
        assert!(profile.sees_tool("other", "write_file"));
    }

    #[test]
    fn a_clients_settings_win_over_the_defaults_and_the_rest_follow_the_default() {
        let default = Profile::default()
            .with(&hide_tool("fs", "write_file"))
            .with(&ProfileChange {
                prompts: Some(false),
                ask_person: Some(false),
                per_minute: Some(60),
                ..ProfileChange::default()
            });
        let own = Profile::default().with(&ProfileChange {
            tools: vec![ToolSwitch {
                server: "fs".into(),
                tool: "write_file".into(),
                on: true,
            }],
            per_minute: Some(0),
            ..ProfileChange::default()
        });
        let client = own.over(&default);
        assert!(client.sees_tool("fs", "write_file"), "its own setting wins");
        assert!(
            !client.sees_prompts("fs"),
            "the default's, where it sets none"
        );
        assert!(!client.asks_person(), "the default's too");
        assert!(
            Profile::default().asks_person(),
            "Gatehouse's own asks the person"
        );
        assert!(
            own.with(&ProfileChange {
                ask_person: Some(true),
                ..ProfileChange::default()
            })
            .over(&default)
            .asks_person(),
            "its own setting wins"
        );
        assert_eq!(client.limits().per_minute, None, "0 lifts the default's");
        assert_eq!(
            Profile::default().over(&default).limits().per_minute,
            Some(60)
        );
    }

    #[test]
    fn a_setting_handed_back_follows_the_default_again() {
        let default = Profile::default().with(&hide_tool("fs", "write_file"));
        let own = Profile::default().with(&ProfileChange {
            tools: vec![ToolSwitch {
                server: "fs".into(),
                tool: "write_file".into(),
                on: true,
            }],
            servers: vec![ServerSwitch {
                server: "memory".into(),
                on: false,
            }],
            resources: Some(false),
            max_in_flight: Some(2),
            per_minute: Some(5),
            ..ProfileChange::default()
        });
        let back = own.with(&ProfileChange {
            reset: vec![
                ProfileSetting::Tool {
                    server: "fs".into(),
                    tool: "write_file".into(),
                },
                ProfileSetting::Resources,
                ProfileSetting::Limits,
            ],
            ..ProfileChange::default()
        });
        assert!(back.tools.is_empty(), "no empty map is left behind");
        assert_eq!(back.resources, None);
        assert_eq!((back.max_in_flight, back.per_minute), (None, None));
        let client = back.over(&default);
        assert!(!client.sees_tool("fs", "write_file"), "the default's again");
        assert!(
            !client.sees_server("memory"),
            "what was not handed back stays"
        );
        assert!(client.sees_resources("fs"));
        assert_eq!(client.limits().max_in_flight, MAX_IN_FLIGHT);
        let set_again = back.with(&ProfileChange {
            reset: vec![ProfileSetting::Prompts],
            prompts: Some(false),
            ..ProfileChange::default()
        });
        assert_eq!(set_again.prompts, Some(false), "a reset comes before a set");
    }

    #[test]
    fn a_change_of_limits_alone_does_not_change_what_a_client_is_shown() {
        let base = Profile::default();
        let limited = base.with(&ProfileChange {
            per_minute: Some(10),
            ..ProfileChange::default()
        });
        assert!(base.shows_the_same(&limited));
        let explicit_on = base.with(&ProfileChange {
            servers: vec![ServerSwitch {
                server: "fs".into(),
                on: true,
            }],
            ..ProfileChange::default()
        });
        assert!(base.shows_the_same(&explicit_on), "on is what it was");
        assert!(!base.shows_the_same(&base.with(&hide_tool("fs", "x"))));
    }

    #[test]
    fn limits_that_would_lock_a_client_out_are_refused() {
        let zero = ProfileChange {
            max_in_flight: Some(0),
            ..ProfileChange::default()
        };
        assert!(zero.check_limits().is_err());
        let tiny = ProfileChange {
            max_message_bytes: Some(10),
            ..ProfileChange::default()
        };
        assert!(tiny.check_limits().is_err());
        assert!(ProfileChange::default().check_limits().is_ok());
        assert!(ProfileChange::default().is_empty());
    }

    #[test]
    fn a_profile_round_trips_through_its_stored_json() {
        let profile = Profile::default().with(&hide_tool("fs", "write_file"));
        let text = serde_json::to_string(&profile).expect("as expected");
        assert_eq!(text, r#"{"tools":{"fs":{"write_file":false}}}"#);
        assert_eq!(
            serde_json::from_str::<Profile>(&text).expect("as expected"),
            profile
        );
        assert_eq!(
            serde_json::from_str::<Profile>("{}").expect("as expected"),
            Profile::default()
        );
    }
}
