//! OAuth material in the real keyring (gnome-keyring; run under `scripts/with-keyring.sh`): a
//! server's tokens and an issuer's client credentials round-trip, are replaced and deleted, and
//! removing a server deletes its tokens (but not the issuer's client, which other servers share);
//! the `KeyringTokenStore` the sessions use reads and writes those same entries.

use crate::support;

use gatehouse_host::secrets::oauth;
use gatehouse_host::secrets::{KeyringStore, SecretKey, SecretStore};
use gatehouse_mcp::Sensitive;
use gatehouse_mcp::auth::{ClientCredentials, TokenEndpointAuth, Tokens};

fn unique(tag: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!("{tag}-{nanos:x}-{}", std::process::id())
}

fn tokens(access: &str, refresh: Option<&str>) -> Tokens {
    Tokens {
        access_token: Sensitive::new(access.to_owned()),
        refresh_token: refresh.map(|r| Sensitive::new(r.to_owned())),
        expires_at: Some(1_893_456_000),
        issued_at: Some(1_893_452_400),
        scopes: vec!["mcp:read".into(), "mcp:write".into()],
        issuer: "https://auth.example.com".into(),
        resource: "https://mcp.example.com/mcp".into(),
        dpop: false,
        step_up_scopes: Vec::new(),
    }
}

#[tokio::test]
async fn tokens_round_trip_are_replaced_and_deleted() {
    let store = KeyringStore;
    let server_id = unique("server");
    assert_eq!(
        oauth::tokens(&store, &server_id).await.expect("keyring"),
        None,
        "nothing before sign-in"
    );
    let first = tokens(&unique("at"), Some(&unique("rt")));
    oauth::put_tokens(&store, &server_id, "remote", &first)
        .await
        .expect("store tokens");
    assert_eq!(
        oauth::tokens(&store, &server_id).await.expect("keyring"),
        Some(first.clone())
    );

    // A refresh without a new refresh token, no expiry and other scopes replaces the entry.
    let second = Tokens {
        expires_at: None,
        scopes: vec!["mcp:read".into()],
        // Scopes a 403 asked for, kept for the next sign-in, round-trip too.
        step_up_scopes: vec!["mcp:admin".into()],
        ..tokens(&unique("at2"), None)
    };
    oauth::put_tokens(&store, &server_id, "remote", &second)
        .await
        .expect("replace tokens");
    let read = oauth::tokens(&store, &server_id)
        .await
        .expect("keyring")
        .expect("tokens");
    assert_eq!(read, second);
    assert_eq!(
        read.access_token.expose(),
        second.access_token.expose(),
        "the value itself, not only its wrapper"
    );
    assert!(
        !format!("{read:?}").contains(second.access_token.expose()),
        "printing tokens never shows them: {read:?}"
    );

    // The entry is JSON, under the server's own account name.
    let raw = store
        .get(&SecretKey::OAuthTokens {
            server_id: server_id.clone(),
        })
        .await
        .expect("keyring")
        .expect("entry");
    let json: serde_json::Value = serde_json::from_str(raw.expose()).expect("JSON");
    assert_eq!(json["access_token"], second.access_token.expose().as_str());
    assert_eq!(json["scopes"], serde_json::json!(["mcp:read"]));

    oauth::delete_tokens(&store, &server_id)
        .await
        .expect("delete");
    assert_eq!(
        oauth::tokens(&store, &server_id).await.expect("keyring"),
        None
    );
    oauth::delete_tokens(&store, &server_id)
        .await
        .expect("deleting what is gone is fine");
}

#[tokio::test]
async fn client_credentials_round_trip_per_issuer() {
    let store = KeyringStore;
    let issuer = format!("https://auth.example.com/{}", unique("tenant"));
    let other = format!("{issuer}/other");
    let client = ClientCredentials {
        issuer: issuer.clone(),
        client_id: unique("client"),
        client_secret: Some(Sensitive::new(unique("secret"))),
        auth_method: TokenEndpointAuth::ClientSecretBasic,
    };
    oauth::put_client(&store, &client)
        .await
        .expect("store client");
    let public = ClientCredentials {
        issuer: other.clone(),
        client_id: unique("public"),
        client_secret: None,
        auth_method: TokenEndpointAuth::None,
    };
    oauth::put_client(&store, &public)
        .await
        .expect("store another issuer's client");
    assert_eq!(
        oauth::client(&store, &issuer).await.expect("keyring"),
        Some(client.clone())
    );
    assert_eq!(
        oauth::client(&store, &other).await.expect("keyring"),
        Some(public.clone()),
        "each issuer has its own entry"
    );
    oauth::delete_client(&store, &issuer).await.expect("delete");
    assert_eq!(oauth::client(&store, &issuer).await.expect("keyring"), None);
    assert_eq!(
        oauth::client(&store, &other).await.expect("keyring"),
        Some(public),
        "deleting one issuer's client leaves the other"
    );
    oauth::delete_client(&store, &other).await.expect("delete");
}

#[tokio::test]
async fn removing_a_server_deletes_its_tokens_but_not_its_issuers_client() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = support::open_host(dir.path(), false).await;
    let added = host
        .add_server(support::unreachable_http("signed-in", None))
        .await
        .expect("add");
    let id = added.config.id.clone();
    let store = host.registry().secrets();
    let issuer = format!("https://auth.example.com/{}", unique("issuer"));
    let client = ClientCredentials {
        issuer: issuer.clone(),
        client_id: unique("client"),
        client_secret: Some(Sensitive::new(unique("secret"))),
        auth_method: TokenEndpointAuth::ClientSecretPost,
    };
    oauth::put_tokens(store, &id, "signed-in", &tokens(&unique("at"), Some("rt")))
        .await
        .expect("tokens");
    oauth::put_client(store, &client).await.expect("client");

    host.remove_server("signed-in").await.expect("remove");
    assert_eq!(
        oauth::tokens(&KeyringStore, &id).await.expect("keyring"),
        None,
        "a removed server's tokens are deleted with it"
    );
    assert_eq!(
        oauth::client(&KeyringStore, &issuer)
            .await
            .expect("keyring"),
        Some(client),
        "the issuer's client stays for the other servers it protects"
    );
    oauth::delete_client(&KeyringStore, &issuer)
        .await
        .expect("clean up");
    host.shutdown().await;
}

#[tokio::test]
async fn the_keyring_token_store_keeps_tokens_by_server_id_and_clients_by_issuer() {
    use gatehouse_host::secrets::KeyringTokenStore;
    use gatehouse_mcp::auth::TokenStore;
    use std::sync::Arc;

    let store = KeyringTokenStore::new(Arc::new(KeyringStore));
    let server_id = unique("srv");
    assert_eq!(store.load_tokens(&server_id).await.expect("keyring"), None);
    let kept = tokens(&unique("at"), Some(&unique("rt")));
    store
        .save_tokens(&server_id, kept.clone())
        .await
        .expect("save");
    assert_eq!(
        store.load_tokens(&server_id).await.expect("keyring"),
        Some(kept.clone())
    );
    assert_eq!(
        oauth::tokens(&KeyringStore, &server_id)
            .await
            .expect("keyring"),
        Some(kept),
        "the entry is the server id's OAuth tokens entry"
    );
    store.remove_tokens(&server_id).await.expect("remove");
    assert_eq!(store.load_tokens(&server_id).await.expect("keyring"), None);

    let issuer = format!("https://auth.example.com/{}", unique("as"));
    let client = ClientCredentials {
        issuer: issuer.clone(),
        client_id: unique("client"),
        client_secret: None,
        auth_method: TokenEndpointAuth::None,
    };
    store.save_client(client.clone()).await.expect("save");
    assert_eq!(
        oauth::client(&KeyringStore, &issuer)
            .await
            .expect("keyring"),
        Some(client.clone())
    );
    assert_eq!(
        store.load_client(&issuer).await.expect("keyring"),
        Some(client)
    );
    store.remove_client(&issuer).await.expect("remove");
    assert_eq!(store.load_client(&issuer).await.expect("keyring"), None);
}
