//! The control socket's listener: a Unix domain socket `DATA/engine.sock`, made 0600 right after
//! `bind` (with `chmod`; until then it is already out of other accounts' reach, inside the 0700
//! data directory), each peer's uid checked ([`super::peer`]), at most [`MAX_CONNECTIONS`]
//! served at once (one more is told so and closed). The listener task owns every connection's
//! task; when the engine stops it waits for them to end.
//!
//! On Windows the door is a named pipe instead ([`super::pipe`]), served the same way.

use std::sync::Arc;

use tokio::task::{JoinHandle, JoinSet};

use super::protocol::{ErrorCode, MAX_CONNECTIONS, error_reply, rpc_code};
use super::shared::Shared;
use crate::error::Result;

#[cfg(unix)]
pub(crate) fn start(shared: Arc<Shared>) -> Result<JoinHandle<()>> {
    use std::os::unix::fs::PermissionsExt;

    use tokio::net::UnixListener;

    use crate::error::HostError;

    let path = shared.info.socket.clone();
    let listener = UnixListener::bind(&path)
        .map_err(|e| HostError::io(format!("cannot listen on {}", path.display()), e))?;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))
        .map_err(|e| HostError::io(format!("cannot make {} private", path.display()), e))?;
    let own_uid = super::peer::own_uid();
    Ok(tokio::spawn(async move {
        let mut faces = JoinSet::new();
        let mut stop = shared.stop.clone();
        let mut next_face = 0u64;
        loop {
            let accepted = tokio::select! {
                accepted = listener.accept() => accepted,
                _ = stop.wait_for(|stop| *stop) => break,
                Some(_) = faces.join_next(), if !faces.is_empty() => continue,
            };
            let stream = match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    tracing::warn!("the control socket cannot accept: {e}");
                    continue;
                }
            };
            let uid = match stream.peer_cred() {
                Ok(cred) => cred.uid(),
                Err(e) => {
                    tracing::warn!("cannot tell who connected to the control socket: {e}");
                    continue;
                }
            };
            let refusal = if let Err(why) = super::peer::peer_allowed(uid, own_uid) {
                tracing::warn!("{why}");
                Some((ErrorCode::Denied, why))
            } else if faces.len() >= MAX_CONNECTIONS {
                Some((
                    ErrorCode::TooManyCalls,
                    format!("the engine serves at most {MAX_CONNECTIONS} connections"),
                ))
            } else {
                None
            };
            if let Some((code, why)) = refusal {
                faces.spawn(refuse(stream, code, why));
                continue;
            }
            next_face += 1;
            let (read, write) = match stream.into_std().and_then(super::socket_halves::split) {
                Ok(halves) => halves,
                Err(e) => {
                    tracing::warn!("cannot serve a control connection: {e}");
                    continue;
                }
            };
            faces.spawn(super::face::serve(
                read,
                write,
                shared.clone(),
                uid,
                next_face,
            ));
        }
        while faces.join_next().await.is_some() {}
    }))
}

#[cfg(windows)]
pub(crate) fn start(shared: Arc<Shared>) -> Result<JoinHandle<()>> {
    super::pipe::listen(shared)
}

#[cfg(not(any(unix, windows)))]
pub(crate) fn start(_shared: Arc<Shared>) -> Result<JoinHandle<()>> {
    Err(crate::error::HostError::Unsupported(
        "the control socket is not available on this system".into(),
    ))
}

/// Tells a connection it is refused (`code`, `why`) and closes it, giving it a second to read.
pub(crate) async fn refuse<S>(mut stream: S, code: ErrorCode, why: String)
where
    S: tokio::io::AsyncWrite + Unpin,
{
    let reply = error_reply(None, rpc_code::ENGINE_ERROR, code, &why);
    let _ = tokio::time::timeout(
        std::time::Duration::from_secs(1),
        super::framing::write_message(&mut stream, &reply),
    )
    .await;
}
