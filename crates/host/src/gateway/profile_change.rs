//! One change to a gateway client's profile ([`super::profiles`]), as the CLI and the window
//! ask for it: servers and tools switched, resources, prompts and asking the person turned on or
//! off, limits set, and settings handed back to the profile below; all applied together or
//! none, limits that would lock the client out refused first.

use serde::{Deserialize, Serialize};

/// The smallest message-size limit a profile may set: an `initialize` must fit.
pub const MIN_MESSAGE_BYTES: u32 = 1024;

/// One change to a profile, as the CLI and the window ask for it: every part optional, all
/// applied together or none.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ProfileChange {
    #[serde(default)]
    pub servers: Vec<ServerSwitch>,
    #[serde(default)]
    pub tools: Vec<ToolSwitch>,
    pub resources: Option<bool>,
    pub prompts: Option<bool>,
    pub ask_person: Option<bool>,
    pub max_in_flight: Option<u32>,
    /// 0 is no limit.
    pub per_minute: Option<u32>,
    pub max_message_bytes: Option<u32>,
    /// Settings handed back to the profile below (applied before the ones this change sets).
    #[serde(default)]
    pub reset: Vec<ProfileSetting>,
}

/// One setting a profile can leave to the profile below it: a client's to the default
/// profile's, the default profile's to Gatehouse's own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ProfileSetting {
    Server {
        server: String,
    },
    Tool {
        server: String,
        tool: String,
    },
    Resources,
    Prompts,
    AskPerson,
    /// The three limits together.
    Limits,
}

/// A server turned on or off.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ServerSwitch {
    pub server: String,
    pub on: bool,
}

/// A tool of a server turned on or off.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ToolSwitch {
    pub server: String,
    pub tool: String,
    pub on: bool,
}

impl ProfileChange {
    /// Whether the change asks for nothing.
    pub fn is_empty(&self) -> bool {
        *self == ProfileChange::default()
    }

    /// Refuses limits that would lock the client out.
    pub fn check_limits(&self) -> Result<(), String> {
        if self.max_in_flight == Some(0) {
            return Err("--max-in-flight must be at least 1".to_owned());
        }
        if let Some(bytes) = self.max_message_bytes
            && bytes < MIN_MESSAGE_BYTES
        {
            return Err(format!(
                "--max-message-bytes must be at least {MIN_MESSAGE_BYTES}"
            ));
        }
        Ok(())
    }
}
