//! `gatehouse settings [get [KEY]] | set KEY VALUE [--json]`: the engine's settings (approval
//! timeout, default stop graces, health-check interval, audit retention), stored in the data
//! directory's database; a running engine (the app, `gatehouse serve`) follows a change within
//! about half a second. A value out of its range is refused naming the range. `--json` prints
//! the settings as the Settings page reads them.

use clap::Subcommand;
use gatehouse_host::{EngineSettings, Host, HostError, SETTING_KEYS};

use crate::output;

#[derive(Debug, Subcommand)]
pub enum SettingsCommand {
    /// Print every setting, or the one named
    Get {
        /// approval-timeout, stop-stdin-grace, stop-term-grace, health-check-interval or
        /// audit-retention
        key: Option<String>,
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
    /// Set one setting (audit-retention takes `off` to keep everything)
    Set {
        key: String,
        value: String,
        /// Print JSON instead of text
        #[arg(long)]
        json: bool,
    },
}

pub async fn run(host: &Host, command: SettingsCommand) -> Result<(), HostError> {
    match command {
        SettingsCommand::Get { key, json } => {
            let settings = host.settings().await?;
            match key {
                Some(key) => {
                    let value = settings.get(&key)?;
                    if json {
                        return output::print_json(&value);
                    }
                    say!("{}", shown(value));
                    Ok(())
                }
                None => show(&settings, json),
            }
        }
        SettingsCommand::Set { key, value, json } => {
            let settings = host.set_setting(&key, &value).await?;
            show(&settings, json)
        }
    }
}

fn shown(value: Option<u32>) -> String {
    value.map_or_else(|| "off".to_owned(), |v| v.to_string())
}

/// Prints every setting as `KEY VALUE UNIT`, or the JSON object.
fn show(settings: &EngineSettings, json: bool) -> Result<(), HostError> {
    if json {
        return output::print_json(settings);
    }
    for key in SETTING_KEYS {
        let value = settings.get(key.key)?;
        let unit = if value.is_some() { key.unit } else { "" };
        say!("{:<22} {} {unit}", key.key, shown(value));
    }
    Ok(())
}
