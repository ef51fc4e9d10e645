//! The control socket on Windows: a named pipe `\\.\pipe\gatehouse-<hash of the data directory>`
//! ([`name`], also what `engine.json` names as the socket), carrying the same framing as the
//! Unix socket. Each instance is created with a security descriptor whose DACL grants the
//! current user alone (`D:P(A;;GA;;;<the user's SID from the process token>)`: no inherited
//! entries, nobody else, not even Administrators by a group entry) and with
//! `PIPE_REJECT_REMOTE_CLIENTS`, so no other account and no other machine can open it. That ACL
//! is the peer check: there is no uid to compare as `SO_PEERCRED` gives on Unix, so a face's uid
//! is reported as 0. The first instance is created with `FILE_FLAG_FIRST_PIPE_INSTANCE`, so an
//! engine whose pipe name is already taken (a second engine, or another process that created the
//! pipe first to catch the CLI's requests) fails to start instead of sharing the name.
//!
//! This side is not built or tested on the platforms the test suite runs on (docs/security.md).

use std::path::Path;

use sha2::{Digest, Sha256};

/// The pipe's name for a data directory: the first 16 bytes of the SHA-256 of its path, so that
/// each data directory has its own engine (Windows paths are case-insensitive, so the path is
/// lowercased first).
pub fn name(data_dir: &Path) -> String {
    let path = data_dir.to_string_lossy().to_lowercase();
    let digest = Sha256::digest(path.as_bytes());
    let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    format!(r"\\.\pipe\gatehouse-{hex}")
}

#[cfg(windows)]
pub(crate) use windows::{connect, listen};

#[cfg(windows)]
mod windows {
    use std::ffi::OsString;
    use std::path::Path;
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use tokio::io::{ReadHalf, WriteHalf};
    use tokio::net::windows::named_pipe::{
        ClientOptions, NamedPipeClient, NamedPipeServer, ServerOptions,
    };
    use tokio::task::{JoinHandle, JoinSet};
    use windows_sys::Win32::Foundation::{CloseHandle, ERROR_PIPE_BUSY, HANDLE, HLOCAL, LocalFree};
    use windows_sys::Win32::Security::Authorization::{
        ConvertSidToStringSidW, ConvertStringSecurityDescriptorToSecurityDescriptorW,
        SDDL_REVISION_1,
    };
    use windows_sys::Win32::Security::{
        GetTokenInformation, PSECURITY_DESCRIPTOR, SECURITY_ATTRIBUTES, TOKEN_QUERY, TOKEN_USER,
        TokenUser,
    };
    use windows_sys::Win32::System::Threading::{GetCurrentProcess, OpenProcessToken};

    use super::super::protocol::{ErrorCode, MAX_CONNECTIONS};
    use super::super::shared::Shared;
    use crate::error::{HostError, Result};

    /// How long a face waits for a free instance when every one is busy.
    const BUSY_WAIT: Duration = Duration::from_secs(2);

    /// Creates the first instance of the data directory's pipe and serves it, as the Unix
    /// listener serves its socket: at most [`MAX_CONNECTIONS`] faces, each one's task owned here.
    pub(crate) fn listen(shared: Arc<Shared>) -> Result<JoinHandle<()>> {
        let name = shared.info.socket.clone().into_os_string();
        let sddl = current_user_only()
            .map_err(|e| HostError::io("cannot find the current user's SID", e))?;
        let first = create(&name, &sddl, true).map_err(|e| {
            HostError::io(
                format!(
                    "cannot create the named pipe {} (another process may hold the name)",
                    name.to_string_lossy()
                ),
                e,
            )
        })?;
        Ok(tokio::spawn(async move {
            let mut server = first;
            let mut faces = JoinSet::new();
            let mut stop = shared.stop.clone();
            let mut next_face = 0u64;
            loop {
                let connected = {
                    let connect = server.connect();
                    tokio::pin!(connect);
                    loop {
                        tokio::select! {
                            connected = &mut connect => break Some(connected),
                            _ = stop.wait_for(|stop| *stop) => break None,
                            Some(_) = faces.join_next(), if !faces.is_empty() => {}
                        }
                    }
                };
                let Some(connected) = connected else { break };
                // The next instance waits for the next face while this one is served (or, if
                // this one failed to connect, in its place).
                let next = match create(&name, &sddl, false) {
                    Ok(next) => next,
                    Err(e) => {
                        tracing::warn!("the control pipe cannot make a new instance: {e}");
                        break;
                    }
                };
                let stream = std::mem::replace(&mut server, next);
                if let Err(e) = connected {
                    tracing::warn!("the control pipe cannot accept: {e}");
                    continue;
                }
                if faces.len() >= MAX_CONNECTIONS {
                    let why = format!("the engine serves at most {MAX_CONNECTIONS} connections");
                    faces.spawn(super::super::listener::refuse(
                        stream,
                        ErrorCode::TooManyCalls,
                        why,
                    ));
                    continue;
                }
                next_face += 1;
                let (read, write) = tokio::io::split(stream);
                // No uid on Windows: the pipe's ACL admitted only this user.
                faces.spawn(super::super::face::serve(
                    read,
                    write,
                    shared.clone(),
                    0,
                    next_face,
                ));
            }
            while faces.join_next().await.is_some() {}
        }))
    }

    /// Opens the data directory's pipe; `None` when no engine serves it. Every instance busy
    /// (faces connecting at once) is waited out for up to [`BUSY_WAIT`].
    pub(crate) async fn connect(
        data_dir: &Path,
    ) -> Result<Option<(ReadHalf<NamedPipeClient>, WriteHalf<NamedPipeClient>)>> {
        let name = super::name(data_dir);
        let started = Instant::now();
        loop {
            // The default security QoS is SECURITY_IDENTIFICATION: the engine may learn who
            // connected but cannot act as them.
            match ClientOptions::new().open(&name) {
                Ok(client) => return Ok(Some(tokio::io::split(client))),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
                Err(e)
                    if e.raw_os_error() == Some(ERROR_PIPE_BUSY as i32)
                        && started.elapsed() < BUSY_WAIT =>
                {
                    // Every instance is taken: try again shortly (tokio's documented way for
                    // a named pipe's client; no event says when one frees), within BUSY_WAIT.
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                Err(e) => {
                    return Err(HostError::io(
                        format!("cannot reach the engine at {name}"),
                        e,
                    ));
                }
            }
        }
    }

    /// One instance of the pipe, readable and writable only by the user `sddl` names, local
    /// clients only; `first`: fail if the name exists already.
    #[allow(unsafe_code)]
    fn create(name: &OsString, sddl: &[u16], first: bool) -> std::io::Result<NamedPipeServer> {
        let mut descriptor: PSECURITY_DESCRIPTOR = std::ptr::null_mut();
        // SAFETY: `sddl` is a NUL-terminated UTF-16 string; on success the function stores a
        // descriptor it allocated with LocalAlloc in `descriptor`, freed below.
        let made = unsafe {
            ConvertStringSecurityDescriptorToSecurityDescriptorW(
                sddl.as_ptr(),
                SDDL_REVISION_1,
                &mut descriptor,
                std::ptr::null_mut(),
            )
        };
        if made == 0 {
            return Err(std::io::Error::last_os_error());
        }
        let mut attributes = SECURITY_ATTRIBUTES {
            nLength: size_of::<SECURITY_ATTRIBUTES>() as u32,
            lpSecurityDescriptor: descriptor,
            bInheritHandle: 0,
        };
        let mut options = ServerOptions::new();
        options
            .first_pipe_instance(first)
            .reject_remote_clients(true)
            .access_inbound(true)
            .access_outbound(true);
        // SAFETY: `attributes` is a valid SECURITY_ATTRIBUTES whose descriptor lives until the
        // call returns (CreateNamedPipeW copies it into the pipe's object).
        let created = unsafe {
            options.create_with_security_attributes_raw(
                name,
                (&raw mut attributes).cast::<std::ffi::c_void>(),
            )
        };
        // SAFETY: `descriptor` was allocated by the conversion above and is not used again.
        unsafe { LocalFree(descriptor as HLOCAL) };
        created
    }

    /// `D:P(A;;GA;;;<SID>)` for the user this process runs as, NUL-terminated UTF-16.
    fn current_user_only() -> std::io::Result<Vec<u16>> {
        let sid = current_user_sid()?;
        Ok(format!("D:P(A;;GA;;;{sid})")
            .encode_utf16()
            .chain(std::iter::once(0))
            .collect())
    }

    /// The current user's SID as a string (`S-1-5-21-…`), from the process token.
    #[allow(unsafe_code)]
    fn current_user_sid() -> std::io::Result<String> {
        let mut token: HANDLE = std::ptr::null_mut();
        // SAFETY: GetCurrentProcess returns a pseudo handle that needs no closing; `token`
        // receives a handle we own, closed by `Token` below.
        if unsafe { OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &mut token) } == 0 {
            return Err(std::io::Error::last_os_error());
        }
        let token = Token(token);
        let mut len = 0u32;
        // SAFETY: a null buffer of length 0 asks for the size needed, written to `len` (the
        // call itself fails with ERROR_INSUFFICIENT_BUFFER, as documented).
        unsafe { GetTokenInformation(token.0, TokenUser, std::ptr::null_mut(), 0, &mut len) };
        if len == 0 {
            return Err(std::io::Error::last_os_error());
        }
        // u64s, so the buffer is aligned for TOKEN_USER.
        let mut buffer = vec![0u64; (len as usize).div_ceil(8)];
        // SAFETY: `buffer` holds at least `len` writable bytes.
        let read = unsafe {
            GetTokenInformation(
                token.0,
                TokenUser,
                buffer.as_mut_ptr().cast(),
                len,
                &mut len,
            )
        };
        if read == 0 {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: on success the buffer starts with a TOKEN_USER whose SID points into the
        // buffer, which lives until the end of this function.
        let user = unsafe { &*buffer.as_ptr().cast::<TOKEN_USER>() };
        let mut text: *mut u16 = std::ptr::null_mut();
        // SAFETY: the SID is valid (above); on success `text` is a NUL-terminated UTF-16
        // string allocated with LocalAlloc, read and then freed here.
        if unsafe { ConvertSidToStringSidW(user.User.Sid, &mut text) } == 0 {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: `text` is the NUL-terminated string the conversion returned (above): read up
        // to its NUL, then freed once.
        let sid = unsafe {
            let len = (0..).take_while(|&i| *text.add(i) != 0).count();
            let sid = String::from_utf16_lossy(std::slice::from_raw_parts(text, len));
            LocalFree(text as HLOCAL);
            sid
        };
        Ok(sid)
    }

    /// A token handle, closed when dropped.
    struct Token(HANDLE);

    impl Drop for Token {
        #[allow(unsafe_code)]
        fn drop(&mut self) {
            // SAFETY: the handle came from OpenProcessToken and is closed once.
            unsafe { CloseHandle(self.0) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_data_directory_has_its_own_pipe_name() {
        let one = name(Path::new(r"C:\Users\ana\AppData\Roaming\gatehouse"));
        assert!(one.starts_with(r"\\.\pipe\gatehouse-"), "{one}");
        assert_eq!(one.len(), r"\\.\pipe\gatehouse-".len() + 32);
        assert_eq!(
            one,
            name(Path::new(r"c:\users\ana\appdata\roaming\GATEHOUSE")),
            "the same directory, however it is cased"
        );
        assert_ne!(one, name(Path::new(r"C:\Users\ana\other")));
    }
}
