//! `gatehouse prompts|prompt`: list a server's prompts with their arguments (every page), and
//! get one prompt filled in, printed message by message.

use std::collections::BTreeMap;

use gatehouse_host::protocol::Prompt;
use gatehouse_host::{Host, HostError, Source};
use serde_json::json;

use crate::commands::connection::Connection;
use crate::output;

pub async fn list(host: &Host, server: &str, json: bool) -> Result<(), HostError> {
    let connection = Connection::open(host, server).await?;
    let listed = connection
        .client()
        .list_prompts()
        .await
        .map_err(HostError::from);
    let name = connection.server().to_owned();
    let page = connection.close(listed).await?;
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
    host: &Host,
    server: &str,
    prompt: &str,
    arguments: BTreeMap<String, String>,
    json: bool,
) -> Result<(), HostError> {
    let connection = Connection::open(host, server).await?;
    let got = connection
        .get_prompt(prompt, &arguments, Source::User)
        .await;
    let name = connection.server().to_owned();
    let result = connection.close(got).await?;
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
