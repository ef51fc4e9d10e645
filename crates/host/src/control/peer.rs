//! Who may use the control socket: only the account the engine runs as. The socket lives in the
//! data directory (0700) and is itself 0600, and each connection's peer uid, as the kernel
//! reports it (`SO_PEERCRED` on Linux, `getpeereid` on the BSDs and macOS, through tokio's
//! `UnixStream::peer_cred`), must be the engine's own uid.

/// The engine's own uid.
#[cfg(unix)]
pub fn own_uid() -> u32 {
    nix::unistd::getuid().as_raw()
}

/// Whether a peer with uid `peer` may attach to an engine running as `own`.
pub fn peer_allowed(peer: u32, own: u32) -> Result<(), String> {
    if peer == own {
        Ok(())
    } else {
        Err(format!(
            "uid {peer} may not use this engine's control socket (it belongs to uid {own})"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_engines_own_uid_is_let_in() {
        assert!(peer_allowed(1000, 1000).is_ok());
        let refused = peer_allowed(1001, 1000).expect_err("another uid is refused");
        assert!(refused.contains("uid 1001"), "{refused}");
        assert!(peer_allowed(0, 1000).is_err(), "not even root's");
    }
}
