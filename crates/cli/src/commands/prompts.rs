//! `gatehouse prompts|prompt`: list a server's prompts with their arguments (every page), and
//! get one prompt filled in, printed message by message.

use std::collections::BTreeMap;

use gatehouse_host::HostError;
use gatehouse_host::control::answers;
use gatehouse_host::control::protocol::PromptParams;
use gatehouse_host::protocol::Prompt;
use serde_json::json;

use crate::door::Door;
use crate::output;

pub async fn list(door: &Door<'_>, server: &str, json: bool) -> Result<(), HostError> {
    let listed = door
        .ask(
            server,
            async |engine| engine.prompts(server).await,
            async |connection| answers::prompts(connection).await,
        )
        .await?;
    let (name, page) = listed.into_page();
    if json {
        return output::print_page_json(&name, "prompts", &page);
    }
    let rows: Vec<[String; 3]> = page
        .items
        .iter()
        .map(|p| {
            [
                p.name.clone(),
                describe_arguments(p),
                output::first_line(p.title.as_ref().or(p.description.as_ref())),
            ]
        })
        .collect();
    output::print_rows(
        &name,
        "prompts",
        ["PROMPT", "ARGUMENTS", "DESCRIPTION"],
        &rows,
    );
    output::warn_malformed(&page, "prompt");
    Ok(())
}

pub async fn get(
    door: &Door<'_>,
    server: &str,
    prompt: &str,
    arguments: BTreeMap<String, String>,
    json: bool,
) -> Result<(), HostError> {
    let params = PromptParams {
        server: server.to_owned(),
        name: prompt.to_owned(),
        arguments: arguments.clone(),
    };
    let reply = door
        .ask(
            server,
            async |engine| engine.get_prompt(params).await,
            async |connection| answers::prompt(connection, prompt, &arguments).await,
        )
        .await?;
    let name = reply.server.clone();
    let result = reply.parsed()?;
    if json {
        return output::print_json(&json!({
            "server": name,
            "prompt": prompt,
            "description": result.description,
            "messages": result.messages,
        }));
    }
    if let Some(description) = &result.description {
        say!("{description}");
        say!();
    }
    for message in &result.messages {
        say!("[{}]", message.role.as_str());
        say!("{}", output::describe_content(&message.content));
    }
    Ok(())
}

/// `city*, state`: argument names, required ones starred.
fn describe_arguments(prompt: &Prompt) -> String {
    prompt
        .arguments
        .iter()
        .map(|a| {
            if a.required {
                format!("{}*", a.name)
            } else {
                a.name.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}
