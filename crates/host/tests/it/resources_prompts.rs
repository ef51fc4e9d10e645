//! The window's Resources and Prompts tabs on the engine's live session: the lists a page at a
//! time (the server's own cursor handed back), and resource subscriptions counted across
//! subscribers, so the server is asked once and told to unsubscribe after the last, with the
//! updates on the host's notes. Against a scripted server that pages its lists and records
//! the subscription requests it gets.

use std::path::Path;
use std::time::Duration;

use gatehouse_host::control::answers;
use gatehouse_host::{AuditFilter, Host, ServerInput, Source};

use crate::support;

/// A server that lists two resources and then one more after the cursor `p2` (prompts the
/// same), records each `resources/subscribe|unsubscribe` in `log`, and sends an update of
/// `a://1` when pinged.
fn paging_server(log: &Path) -> ServerInput {
    let source = support::scripted_source(&format!(
        r#"
LOG = {log:?}
def answer(method, params):
    cursor = params.get("cursor")
    if method == "resources/list":
        if cursor is None:
            return {{"resources": [{{"uri": "a://1", "name": "one"}}, {{"uri": "a://2", "name": "two"}}], "nextCursor": "p2"}}
        if cursor == "p2":
            return {{"resources": [{{"uri": "a://3", "name": "three", "mimeType": "application/json"}}]}}
        raise Refuse(-32602, "unknown cursor")
    if method == "resources/templates/list":
        return {{"resourceTemplates": [{{"uriTemplate": "a://{{id}}", "name": "by id"}}]}}
    if method == "prompts/list":
        if cursor is None:
            return {{"prompts": [{{"name": "greet", "arguments": [{{"name": "who", "required": True}}]}}], "nextCursor": "q2"}}
        return {{"prompts": [{{"name": "bye"}}]}}
    if method in ("resources/subscribe", "resources/unsubscribe"):
        with open(LOG, "a") as f:
            f.write(method + " " + params["uri"] + "\n")
        return {{}}
    if method == "ping":
        send({{"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {{"uri": "a://1"}}}})
        return {{}}
    return None
serve({{"resources": {{"subscribe": True}}, "prompts": {{}}}}, answer)
"#,
        log = log.display().to_string()
    ));
    support::stdio("paged", "python3", vec!["-c".into(), source])
}

fn requests(log: &Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect()
}

async fn live_paging_host(dir: &Path, log: &Path) -> Host {
    let host = support::open_host(dir, true).await;
    host.add_server(paging_server(log)).await.expect("add");
    host
}

#[tokio::test]
async fn lists_come_a_page_at_a_time_with_the_servers_cursor() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = live_paging_host(dir.path(), &dir.path().join("subs.log")).await;
    let connection = host.attached("paged").await.expect("the live session");

    let first = answers::resources_page(&connection, None)
        .await
        .expect("page 1");
    let uris: Vec<&str> = first.items.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(uris, ["a://1", "a://2"], "only the first page");
    assert_eq!(first.next_cursor.as_deref(), Some("p2"));
    let second = answers::resources_page(&connection, first.next_cursor.as_deref())
        .await
        .expect("page 2");
    assert_eq!(second.items.len(), 1);
    assert_eq!(
        second.items[0].mime_type.as_deref(),
        Some("application/json")
    );
    assert_eq!(second.next_cursor, None, "the last page has no cursor");
    let refused = answers::resources_page(&connection, Some("nonsense")).await;
    assert!(refused.is_err(), "a cursor the server refuses is an error");

    let templates = answers::templates_page(&connection, None)
        .await
        .expect("templates");
    assert_eq!(templates.items[0].uri_template, "a://{id}");
    let prompts = answers::prompts_page(&connection, None)
        .await
        .expect("prompts");
    assert_eq!(prompts.items[0].name, "greet");
    assert!(prompts.items[0].arguments[0].required);
    assert_eq!(prompts.next_cursor.as_deref(), Some("q2"));
    let rest = answers::prompts_page(&connection, Some("q2"))
        .await
        .expect("prompts page 2");
    assert_eq!(
        (rest.items[0].name.as_str(), rest.next_cursor),
        ("bye", None)
    );
    host.shutdown().await;
}

#[tokio::test]
async fn subscribers_share_one_subscription_and_the_last_one_ends_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let log = dir.path().join("subs.log");
    let host = live_paging_host(dir.path(), &log).await;
    let connection = host.attached("paged").await.expect("the live session");
    let server_id = connection.server_id().to_owned();
    let mut notes = host.server_notes();

    host.subscribe_shared(&connection, "a://1", Source::User)
        .await
        .expect("the first subscriber");
    host.subscribe_shared(&connection, "a://1", Source::User)
        .await
        .expect("the second subscriber");
    assert_eq!(
        requests(&log),
        ["resources/subscribe a://1"],
        "the server is asked once for both"
    );

    connection.client().ping().await.expect("ping");
    let update = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let note = notes.recv().await.expect("the notes go on");
            if note.method == "notifications/resources/updated" {
                return note;
            }
        }
    })
    .await
    .expect("the update of a://1 within 10 s of the ping");
    assert_eq!(update.server_id, server_id);
    assert_eq!(
        update.params.as_ref().map(|p| p["uri"].clone()),
        Some("a://1".into())
    );

    let key = (server_id.clone(), "a://1".to_owned());
    host.release_subscriptions(vec![key.clone()]).await;
    assert_eq!(
        requests(&log),
        ["resources/subscribe a://1"],
        "one subscriber still wants it: the server is not told"
    );
    host.release_subscriptions(vec![key.clone()]).await;
    assert_eq!(
        requests(&log),
        ["resources/subscribe a://1", "resources/unsubscribe a://1"],
        "the last subscriber gone: the server is told"
    );
    host.release_subscriptions(vec![key]).await;
    assert_eq!(requests(&log).len(), 2, "nobody left to release");

    let rows = host
        .audit()
        .list(&AuditFilter {
            server: Some("paged".into()),
            source: Some("user".into()),
            ..AuditFilter::default()
        })
        .await
        .expect("audit");
    assert!(
        rows.len() >= 2,
        "each subscription went through the gate as the person's: {rows:?}"
    );
    host.shutdown().await;
}
