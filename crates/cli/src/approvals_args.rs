//! The arguments of `gatehouse approvals`: list what the running engine asks, answer one request
//! by its id, or watch and answer at this terminal. The answer words are the dialog's buttons:
//! `allow-once`, `session`, `time DURATION`, `always` and `deny`.

use clap::{Args, Subcommand, ValueEnum};
use gatehouse_host::approvals::{Answer, Scope};
use gatehouse_host::policy::Covers;

#[derive(Debug, Subcommand)]
pub enum ApprovalsCommand {
    /// List the requests waiting for an answer in the running engine
    List {
        /// Print JSON instead of a table
        #[arg(long)]
        json: bool,
    },
    /// Answer a waiting request (the first answer wins; the others see it answered)
    Answer(AnswerArgs),
    /// Show each request as the app's dialog would, and answer it at this terminal
    Watch,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Decision {
    /// Allow this request only
    AllowOnce,
    /// Allow this tool from this source for as long as the engine runs
    Session,
    /// Allow this tool from this source for a time (give the DURATION)
    Time,
    /// Allow this tool from this source from now on (a rule is made)
    Always,
    /// Refuse the request
    Deny,
}

#[derive(Debug, Args)]
pub struct AnswerArgs {
    /// The request's id, as `gatehouse approvals list` shows it
    pub id: String,
    /// allow-once, session, time, always or deny
    #[arg(value_enum)]
    pub decision: Decision,
    /// For `time`: how long the grant lasts, in minutes (`30`) or with a unit (`90m`, `2h`,
    /// `1d`)
    #[arg(value_parser = parse_minutes)]
    pub duration: Option<u32>,
    /// For `deny`: why, told to the requester
    #[arg(long)]
    pub reason: Option<String>,
    /// For `session` and `time`: the grant covers any arguments, not only these
    #[arg(long)]
    pub any_arguments: bool,
}

impl AnswerArgs {
    /// The answer these arguments give, or why they do not make one.
    pub fn answer(&self) -> Result<Answer, String> {
        let grant = |scope| {
            Ok(Answer::Allow {
                scope,
                arguments: None,
                covers: self.any_arguments.then_some(Covers::Any),
            })
        };
        if self.reason.is_some() && self.decision != Decision::Deny {
            return Err("--reason goes with `deny`".into());
        }
        if self.duration.is_some() && self.decision != Decision::Time {
            return Err("a duration goes with `time`".into());
        }
        if self.any_arguments && !matches!(self.decision, Decision::Session | Decision::Time) {
            return Err("--any-arguments goes with `session` or `time`".into());
        }
        match self.decision {
            Decision::AllowOnce => grant(Scope::Once),
            Decision::Session => grant(Scope::Session),
            Decision::Time => match self.duration {
                Some(minutes) => grant(Scope::For { minutes }),
                None => Err("`time` needs a duration: `time 30m`, `time 2h`".into()),
            },
            Decision::Always => grant(Scope::Always),
            Decision::Deny => Ok(Answer::Deny {
                reason: self.reason.clone(),
            }),
        }
    }
}

/// The longest grant for a time: a week, as the dialog offers at most.
const MAX_MINUTES: u32 = 7 * 24 * 60;

/// Minutes from `30`, `30m`, `2h` or `1d`: at least one, at most a week.
fn parse_minutes(raw: &str) -> Result<u32, String> {
    let raw = raw.trim();
    let (number, unit) = match raw.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((at, _)) => raw.split_at(at),
        None => (raw, "m"),
    };
    let per = match unit.trim() {
        "m" | "min" => 1,
        "h" => 60,
        "d" => 24 * 60,
        other => {
            return Err(format!(
                "`{other}` is not a unit: use m, h or d (`90m`, `2h`)"
            ));
        }
    };
    let minutes = number
        .parse::<u32>()
        .ok()
        .and_then(|n| n.checked_mul(per))
        .ok_or_else(|| format!("`{raw}` is not a duration: give minutes (`30`) or `2h`"))?;
    match minutes {
        0 => Err("a grant for no time is no grant: give at least a minute".into()),
        m if m > MAX_MINUTES => Err(format!("at most a week ({MAX_MINUTES} minutes)")),
        m => Ok(m),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(decision: Decision) -> AnswerArgs {
        AnswerArgs {
            id: "p-1".into(),
            decision,
            duration: None,
            reason: None,
            any_arguments: false,
        }
    }

    #[test]
    fn durations_read_as_minutes_with_a_unit_and_within_a_week() {
        assert_eq!(parse_minutes("30"), Ok(30));
        assert_eq!(parse_minutes("90m"), Ok(90));
        assert_eq!(parse_minutes("2h"), Ok(120));
        assert_eq!(parse_minutes("1d"), Ok(1440));
        for bad in ["", "0", "2w", "h", "8d", "99999999999", "-5"] {
            assert!(parse_minutes(bad).is_err(), "{bad:?} is refused");
        }
    }

    #[test]
    fn each_decision_is_the_dialogs_answer() {
        assert_eq!(
            args(Decision::AllowOnce).answer(),
            Ok(Answer::Allow {
                scope: Scope::Once,
                arguments: None,
                covers: None
            })
        );
        let mut time = args(Decision::Time);
        assert!(time.answer().is_err(), "time needs a duration");
        time.duration = Some(120);
        time.any_arguments = true;
        assert_eq!(
            time.answer(),
            Ok(Answer::Allow {
                scope: Scope::For { minutes: 120 },
                arguments: None,
                covers: Some(Covers::Any)
            })
        );
        let mut deny = args(Decision::Deny);
        deny.reason = Some("not now".into());
        assert_eq!(
            deny.answer(),
            Ok(Answer::Deny {
                reason: Some("not now".into())
            })
        );
    }

    #[test]
    fn options_that_belong_to_another_decision_are_refused() {
        let mut once = args(Decision::AllowOnce);
        once.reason = Some("why".into());
        assert!(once.answer().is_err());
        let mut always = args(Decision::Always);
        always.any_arguments = true;
        assert!(always.answer().is_err());
        let mut session = args(Decision::Session);
        session.duration = Some(5);
        assert!(session.answer().is_err());
    }
}
