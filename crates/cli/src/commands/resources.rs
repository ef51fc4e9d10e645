//! `gatehouse resources|templates|read`: list a server's resources and resource templates
//! (every page), and read one resource. Text contents are printed as they are, so
//! `gatehouse read` can be piped; binary contents are summarised unless `--json` is given.

use gatehouse_host::HostError;
use gatehouse_host::control::answers;
use serde_json::json;

use crate::door::Door;
use crate::output;

pub async fn list(door: &Door<'_>, server: &str, json: bool) -> Result<(), HostError> {
    let listed = door
        .ask(
            server,
            async |engine| engine.resources(server).await,
            async |connection| answers::resources(connection).await,
        )
        .await?;
    let (name, page) = listed.into_page();
    if json {
        return output::print_page_json(&name, "resources", &page);
    }
    let rows: Vec<[String; 4]> = page
        .items
        .iter()
        .map(|r| {
            [
                r.uri.clone(),
                r.name.clone(),
                r.mime_type.clone().unwrap_or_default(),
                output::first_line(r.title.as_ref().or(r.description.as_ref())),
            ]
        })
        .collect();
    output::print_rows(
        &name,
        "resources",
        ["URI", "NAME", "MIME TYPE", "DESCRIPTION"],
        &rows,
    );
    output::warn_malformed(&page, "resource");
    Ok(())
}

pub async fn templates(door: &Door<'_>, server: &str, json: bool) -> Result<(), HostError> {
    let listed = door
        .ask(
            server,
            async |engine| engine.templates(server).await,
            async |connection| answers::templates(connection).await,
        )
        .await?;
    let (name, page) = listed.into_page();
    if json {
        return output::print_page_json(&name, "resourceTemplates", &page);
    }
    let rows: Vec<[String; 4]> = page
        .items
        .iter()
        .map(|t| {
            [
                t.uri_template.clone(),
                t.name.clone(),
                t.mime_type.clone().unwrap_or_default(),
                output::first_line(t.title.as_ref().or(t.description.as_ref())),
            ]
        })
        .collect();
    output::print_rows(
        &name,
        "resource templates",
        ["URI TEMPLATE", "NAME", "MIME TYPE", "DESCRIPTION"],
        &rows,
    );
    output::warn_malformed(&page, "resource template");
    Ok(())
}

pub async fn read(door: &Door<'_>, server: &str, uri: &str, json: bool) -> Result<(), HostError> {
    let answers::ReadReply {
        server: name,
        contents,
        ..
    } = door
        .ask(
            server,
            async |engine| engine.read_resource(server, uri).await,
            async |connection| answers::read(connection, uri).await,
        )
        .await?;
    if json {
        return output::print_json(&json!({ "server": name, "uri": uri, "contents": contents }));
    }
    let several = contents.len() > 1;
    for item in &contents {
        if several {
            let mime = item.mime_type.as_deref().unwrap_or("unknown type");
            say!("--- {} ({mime})", item.uri);
        }
        match &item.text {
            Some(text) if text.ends_with('\n') => {
                crate::stdout::write(&crate::terminal_text::visible(text))
            }
            Some(text) => say!("{text}"),
            None => say!("{} {}", item.uri, output::describe_blob(item)),
        }
    }
    if contents.is_empty() {
        say_err!("warning: `{uri}` has no contents");
    }
    Ok(())
}
