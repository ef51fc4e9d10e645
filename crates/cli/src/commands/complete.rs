//! `gatehouse complete <server> (--prompt <name> | --template <uri>) <arg> <prefix>`: ask the
//! server for completions of a prompt argument or a resource template variable, one value a
//! line, so the output can feed a shell completion or a script.

use std::collections::BTreeMap;

use gatehouse_host::protocol::CompletionRef;
use gatehouse_host::{Host, HostError, Source};
use serde_json::json;

use crate::args::CompleteArgs;
use crate::commands::connection::Connection;
use crate::output;

pub async fn run(host: &Host, args: CompleteArgs) -> Result<(), HostError> {
    let reference = match (args.prompt, args.template) {
        (Some(name), _) => CompletionRef::Prompt { name },
        (None, Some(uri)) => CompletionRef::ResourceTemplate { uri },
        (None, None) => {
            return Err(HostError::Validation(
                "give --prompt <name> or --template <uri>".to_owned(),
            ));
        }
    };
    let context: BTreeMap<String, String> = args.context.into_iter().collect();
    let connection = Connection::open(host, &args.server).await?;
    let completed = connection
        .complete(
            &reference,
            &args.argument,
            &args.prefix,
            Some(&context),
            Source::User,
        )
        .await;
    let name = connection.server().to_owned();
    let completion = connection.close(completed).await?;
    if args.json {
        return output::print_json(&json!({
            "server": name,
            "ref": reference.to_json(),
            "argument": args.argument,
            "values": completion.values,
            "total": completion.total,
            "hasMore": completion.has_more,
        }));
    }
    for value in &completion.values {
        say!("{value}");
    }
    if completion.has_more {
        let total = completion
            .total
            .map_or_else(String::new, |t| format!(" of {t}"));
        say_err!(
            "note: {} values shown{total}; the server has more",
            completion.values.len()
        );
    }
    Ok(())
}
