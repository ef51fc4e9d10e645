//! Whether an agent's server entry already goes through Gatehouse: it runs `gatehouse mcp …`
//! (after `--data-dir DIR`, the one option given before the subcommand),
//! or its URL is the gateway's loopback endpoint (`http://127.0.0.1:PORT/mcp`, `/mcp/c/TOKEN`,
//! `localhost` or `[::1]`) on one of the ports given.

use std::path::Path;

use super::model::{Launch, ServerEntry};

/// The gateway's default HTTP port.
pub const DEFAULT_GATEWAY_PORT: u16 = 47821;

pub fn through_gatehouse(entry: &ServerEntry, gateway_ports: &[u16]) -> bool {
    match &entry.launch {
        Launch::Stdio(stdio) => {
            let program = Path::new(&stdio.command)
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            matches!(program, "gatehouse" | "gatehouse.exe")
                && subcommand(&stdio.args).is_some_and(|a| a == "mcp")
        }
        Launch::Remote(remote) => {
            let Ok(url) = url::Url::parse(&remote.url) else {
                return false;
            };
            let loopback = match url.host() {
                Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
                Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
                Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
                None => false,
            };
            let path = url.path().trim_end_matches('/');
            url.scheme() == "http"
                && loopback
                && url.port().is_some_and(|p| gateway_ports.contains(&p))
                && (path == "/mcp" || path.starts_with("/mcp/c/"))
        }
    }
}

/// The first argument after the global `--data-dir DIR` (or `--data-dir=DIR`).
fn subcommand(args: &[String]) -> Option<&String> {
    match args.first().map(String::as_str) {
        Some("--data-dir") => args.get(2),
        Some(a) if a.starts_with("--data-dir=") => args.get(1),
        _ => args.first(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::model::{Remote, Stdio};

    fn stdio(command: &str, args: &[&str]) -> ServerEntry {
        ServerEntry::new(
            "s".into(),
            Launch::Stdio(Stdio {
                command: command.into(),
                args: args.iter().map(|a| a.to_string()).collect(),
                ..Default::default()
            }),
        )
    }

    fn remote(url: &str) -> ServerEntry {
        ServerEntry::new(
            "s".into(),
            Launch::Remote(Remote {
                url: url.into(),
                headers: vec![],
                transport: None,
                bearer_token_env_var: None,
                env_headers: vec![],
            }),
        )
    }

    #[test]
    fn the_gateway_is_recognised() {
        let ports = [DEFAULT_GATEWAY_PORT];
        assert!(through_gatehouse(
            &stdio("gatehouse", &["mcp", "--client", "x"]),
            &ports
        ));
        assert!(through_gatehouse(
            &stdio("/opt/gh/bin/gatehouse", &["mcp"]),
            &ports
        ));
        assert!(through_gatehouse(
            &stdio("gatehouse", &["--data-dir", "/d", "mcp", "--client", "x"]),
            &ports
        ));
        assert!(through_gatehouse(
            &stdio("gatehouse", &["--data-dir=/d", "mcp"]),
            &ports
        ));
        assert!(through_gatehouse(
            &remote("http://127.0.0.1:47821/mcp"),
            &ports
        ));
        assert!(through_gatehouse(
            &remote("http://localhost:47821/mcp/"),
            &ports
        ));
        assert!(through_gatehouse(
            &remote("http://[::1]:47821/mcp/c/ghc_x"),
            &ports
        ));
        assert!(through_gatehouse(
            &remote("http://127.0.0.1:9000/mcp"),
            &[9000]
        ));
    }

    #[test]
    fn look_alikes_are_not() {
        let ports = [DEFAULT_GATEWAY_PORT];
        assert!(!through_gatehouse(&stdio("gatehouse", &["serve"]), &ports));
        assert!(!through_gatehouse(
            &stdio("gatehouse", &["--data-dir", "mcp", "serve"]),
            &ports
        ));
        assert!(!through_gatehouse(
            &stdio("npx", &["gatehouse", "mcp"]),
            &ports
        ));
        assert!(!through_gatehouse(
            &stdio("gatehouse-evil", &["mcp"]),
            &ports
        ));
        assert!(!through_gatehouse(
            &remote("http://127.0.0.1:3000/mcp"),
            &ports
        ));
        assert!(!through_gatehouse(
            &remote("http://evil.example:47821/mcp"),
            &ports
        ));
        assert!(!through_gatehouse(
            &remote("http://127.0.0.1.evil.example:47821/mcp"),
            &ports
        ));
        assert!(!through_gatehouse(
            &remote("http://127.0.0.1:47821/other"),
            &ports
        ));
        assert!(!through_gatehouse(
            &remote("https://127.0.0.1:47821/mcp"),
            &ports
        ));
    }
}
