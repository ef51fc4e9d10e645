//! `gatehouse complete <server> (--prompt <name> | --template <uri>) <arg> <prefix>`: ask the
//! server for completions of a prompt argument or a resource template variable, one value a
//! line, so the output can feed a shell completion or a script.

use std::collections::BTreeMap;

use gatehouse_host::HostError;
use gatehouse_host::control::answers::{self, CompletionAsk};
use serde_json::json;

use crate::args::CompleteArgs;
use crate::door::Door;
use crate::output;

pub async fn run(door: &Door<'_>, args: CompleteArgs) -> Result<(), HostError> {
    let (reference, template) = match (args.prompt, args.template) {
        (Some(name), _) => (name, false),
        (None, Some(uri)) => (uri, true),
        (None, None) => {
            return Err(HostError::Validation(
                "give --prompt <name> or --template <uri>".to_owned(),
            ));
        }
    };
    let context: BTreeMap<String, String> = args.context.into_iter().collect();
    let ask = CompletionAsk {
        reference,
        template,
        argument: args.argument.clone(),
        value: args.prefix,
        context,
    };
    let server = &args.server;
    let reply = door
        .ask(
            server,
            async |engine| engine.complete(server, ask.clone()).await,
            async |connection| answers::complete(connection, &ask).await,
        )
        .await?;
    let (name, completion) = (reply.server, reply.completion);
    if args.json {
        return output::print_json(&json!({
            "server": name,
            "ref": ask.reference().to_json(),
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
