//! `gatehouse auth status|login|logout <server>`: OAuth sign-in to an HTTP server. `login`
//! runs the authorization code flow through the person's browser with a loopback redirect
//! ([`gatehouse_host::LoopbackPrompt`]): the sign-in page's URL always goes to stderr, and is
//! opened with `xdg-open` (`open` on macOS) when a display is available. The tokens go to the
//! OS keyring, where every later connection (the CLI's and the app's) finds them. Nothing
//! printed here holds a token. For a server with enterprise-managed authorization, `login`
//! signs in at its identity provider (unless a sign-in there is kept and still good), and
//! `logout --idp` forgets that sign-in too.

use std::process::{Command, Stdio};
use std::time::Duration;

use gatehouse_host::{AuthStatus, Host, HostError, LoopbackPrompt};
use serde_json::json;

use crate::args::AuthCommand;
use crate::output;

pub async fn run(host: &Host, command: AuthCommand) -> Result<(), HostError> {
    match command {
        AuthCommand::Status { server, json } => {
            let status = host.auth_status(&server).await?;
            if json {
                return output::print_json(&json!(status));
            }
            print_status(&server, &status);
            Ok(())
        }
        AuthCommand::Login { server, timeout } => {
            let name = server.clone();
            let open = move |url: &str| -> Result<(), String> {
                say_err!("Open this page in a browser to sign in to {name}:\n  {url}");
                open_browser(url);
                Ok(())
            };
            let prompt = LoopbackPrompt::bind(Box::new(open), Duration::from_secs(timeout)).await?;
            let status = host.sign_in(&server, prompt).await?;
            say!("signed in to {server}");
            print_status(&server, &status);
            Ok(())
        }
        AuthCommand::Logout { server, idp } => {
            host.sign_out(&server).await?;
            say!("signed out of {server}; its tokens are deleted from the keyring");
            if idp {
                host.forget_idp_sign_in(&server).await?;
                say!("the sign-in at its identity provider is forgotten");
            }
            Ok(())
        }
    }
}

fn print_status(server: &str, status: &AuthStatus) {
    if let (Some(idp), Some(kept)) = (&status.idp_issuer, status.idp_signed_in) {
        let state = if kept { "signed in" } else { "not signed in" };
        say!("{server}: identity provider {idp}: {state}");
    }
    if !status.signed_in {
        say!("{server}: not signed in");
        return;
    }
    say!("{server}: signed in ({})", status.grant);
    if let Some(issuer) = &status.issuer {
        say!("  issuer:      {issuer}");
    }
    let scopes = if status.scopes.is_empty() {
        "(none asked)".to_owned()
    } else {
        status.scopes.join(" ")
    };
    say!("  scopes:      {scopes}");
    say!(
        "  expires:     {}",
        status.expires_at.as_deref().unwrap_or("(not said)")
    );
    say!(
        "  refreshable: {}",
        if status.refreshable { "yes" } else { "no" }
    );
}

/// Opens `url` (an http or https URL: `LoopbackPrompt` refuses others) in the desktop's
/// browser when there is a desktop; the URL printed on stderr is the fallback.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some()
    {
        "xdg-open"
    } else {
        return;
    };
    let spawned = Command::new(opener)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    match spawned {
        // Reaped on a thread of its own, so no zombie is left while the sign-in waits.
        Ok(mut child) => {
            std::thread::spawn(move || child.wait());
        }
        Err(e) => tracing::info!("cannot run {opener}: {e}; open the printed URL by hand"),
    }
}
