//! The Gatehouse desktop app: opens the engine in live mode, exposes it to the webview through
//! typed IPC commands and events, and stops every server when the app exits.

mod app_commands;
mod app_site_commands;
mod app_view_commands;
mod approval_commands;
mod approval_notice;
mod apps;
mod audit_commands;
mod auth_commands;
pub mod bindings;
mod calls;
mod client_commands;
mod commands;
mod connect_commands;
mod event_batch;
mod events;
mod first_run_commands;
mod import_commands;
// The app manifest's list is read by build.rs; the lib only tests it.
#[cfg(test)]
mod ipc_commands;
mod ipc_error;
mod log_events;
mod main_window;
mod notice_groups;
mod offers;
mod policy_commands;
mod settings_commands;
#[cfg(unix)]
pub mod stderr_filter;
mod takeover;
mod traffic_events;
mod tray;
mod tray_menu;
pub mod webkit_compositing;
mod webkit_leftovers;
mod window_state;

use std::path::PathBuf;
use std::sync::Arc;

use gatehouse_host::control::engine::Engine;
use gatehouse_host::{Host, HostOptions};
use tauri::{Manager, RunEvent};

/// What keeps the invoke key out of the app's output: the stderr filter on Unix (see
/// `stderr_filter`); elsewhere nothing (a Windows GUI app has no stderr).
#[cfg(unix)]
pub type OutputGuard = stderr_filter::StderrFilter;
/// What keeps the invoke key out of the app's output: nothing outside Unix.
#[cfg(not(unix))]
#[derive(Debug, Default)]
pub struct OutputGuard;
#[cfg(not(unix))]
impl OutputGuard {
    fn withhold(&self, _secret: &str) {}
    fn finish(&mut self) {}
}

/// Starts the app with the given Tauri context (built in `main.rs`, where the UI is embedded);
/// `output` withholds the invoke key from what the app writes.
pub fn run(context: tauri::Context<tauri::Wry>, mut output: OutputGuard) -> Result<(), String> {
    init_logging();
    let data_dir = data_dir_arg(std::env::args().skip(1));
    let hidden = main_window::hidden_arg(std::env::args().skip(1));
    let take_over = takeover::take_over_arg(std::env::args().skip(1));
    let specta = bindings::specta_builder();
    let app = tauri::Builder::default()
        // One instance: a second launch brings this one's window forward and ends.
        .plugin(tauri_plugin_single_instance::init(|app, _args, _cwd| {
            main_window::open(app);
        }))
        .plugin(tauri_plugin_notification::init())
        .plugin(tauri_plugin_opener::init())
        .plugin(window_state::plugin())
        .plugin(apps::navigation::guard())
        .plugin(apps::view_webviews::forget_on_reload())
        .invoke_handler(specta.invoke_handler())
        .manage(apps::OpenViews::default())
        .manage(tray::KeepRunning::default())
        .manage(main_window::ChosenApproval::default())
        .on_window_event(on_window_event)
        .register_asynchronous_uri_scheme_protocol(
            apps::origins::SANDBOX_SCHEME,
            apps::sandbox_scheme::handle,
        )
        .setup(move |app| {
            specta.mount_events(app);
            let options = HostOptions {
                data_dir: data_dir.clone(),
                live_sessions: true,
                // Started from a desktop launcher, the app lacks the terminal's PATH.
                login_shell: Some(gatehouse_host::login_env::user_shell()),
                // The window renders MCP Apps views in its sandbox frames.
                render_apps: true,
                ..Default::default()
            };
            let (host, engine) = tauri::async_runtime::block_on(async {
                // One engine per data directory: the app is one, so it takes the lock before
                // its host sweeps or starts anything. A running `gatehouse serve` is offered to
                // be taken over (or is, with `--take-over`); refused, it keeps the app from
                // starting, and the message says which engine runs and how to stop it.
                let lock = takeover::acquire(data_dir.as_deref(), |running| {
                    take_over || takeover::ask(running)
                })?;
                let host = Arc::new(Host::open(options).await?);
                // The window answers what the engine asks a person (before any server
                // connects, so that sampling and elicitation are declared to each).
                host.set_attended(true);
                host.start().await?;
                // The control socket: the CLI and (next) agents attach to this engine.
                let engine = Engine::serve(lock, host.clone()).await?;
                Ok::<_, gatehouse_host::HostError>((host, engine))
            })
            .map_err(|e| format!("cannot start the engine: {e}"))?;
            tracing::info!("data directory: {}", host.data_dir().display());
            let notices = approval_notice::start(app.handle().clone());
            tauri::async_runtime::spawn(events::forward(
                app.handle().clone(),
                host.subscribe(),
                notices,
            ));
            tray::install(app.handle())?;
            tauri::async_runtime::spawn(tray::follow(app.handle().clone(), host.subscribe()));
            tauri::async_runtime::spawn(log_events::forward(
                app.handle().clone(),
                host.logs().subscribe(),
            ));
            tauri::async_runtime::spawn(traffic_events::forward(
                app.handle().clone(),
                host.traffic().clone(),
            ));
            tauri::async_runtime::spawn(exit_on_signal(app.handle().clone()));
            app.manage(host);
            app.manage(RunningEngine(std::sync::Mutex::new(Some(engine))));
            app.manage(calls::PendingCalls::default());
            app.manage(offers::subscriptions::PersonSubscriptions::default());
            app.manage(import_commands::PendingImport::default());
            app.manage(connect_commands::PendingConnect::default());
            // Started at login, the app waits in the tray; otherwise the window opens.
            if !hidden {
                main_window::create(app.handle())?;
            }
            Ok(())
        })
        .build(context)
        .map_err(|e| format!("cannot start Gatehouse: {e}"))?;
    // Any webview that sends a wrong key makes Tauri print the right one.
    output.withhold(app.handle().invoke_key());
    app.run(move |handle, event| {
        // The last window closed: the engine stays in the tray while it has servers or agents
        // to serve (Quit in the tray, or a signal, exits with a code and is not held).
        if let RunEvent::ExitRequested {
            code: None, api, ..
        } = &event
            && handle.state::<tray::KeepRunning>().get()
        {
            api.prevent_exit();
            return;
        }
        if let RunEvent::Exit = event {
            // The attached faces are told first, then the servers stop.
            let engine = handle.try_state::<RunningEngine>().and_then(|engine| {
                engine
                    .0
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .take()
            });
            if let Some(engine) = engine {
                tauri::async_runtime::block_on(engine.stop());
            }
            if let Some(host) = handle.try_state::<Arc<Host>>() {
                tauri::async_runtime::block_on(host.shutdown());
            }
            output.finish();
        }
    });
    Ok(())
}

/// The main window closed: its app views' layer goes with it, and the first time the engine
/// stays in the tray, the person is told.
fn on_window_event(window: &tauri::Window, event: &tauri::WindowEvent) {
    if window.label() != apps::origins::MAIN_WEBVIEW {
        return;
    }
    // Its size and position are written as it closes (the app may stay in the tray).
    if let tauri::WindowEvent::CloseRequested { .. } = event {
        window_state::save(window.app_handle());
    }
    if let tauri::WindowEvent::Destroyed = event {
        #[cfg(target_os = "linux")]
        apps::view_layer::forget();
        let app = window.app_handle();
        // No webview left: WebKit's network process goes too (a new one comes with the window).
        if app.webviews().is_empty() {
            let ended = webkit_leftovers::end_network_process();
            tracing::info!("window closed; {ended} WebKit network process(es) ended");
        }
        if app.state::<tray::KeepRunning>().get()
            && let Some(host) = app.try_state::<Arc<Host>>()
        {
            approval_notice::tell_once_about_the_tray(app, host.data_dir());
        }
    }
}

/// The engine's control socket while the app runs; stopped on exit.
struct RunningEngine(std::sync::Mutex<Option<Engine>>);

/// `--data-dir <dir>` or `--data-dir=<dir>` on the app's command line.
fn data_dir_arg(mut args: impl Iterator<Item = String>) -> Option<PathBuf> {
    while let Some(arg) = args.next() {
        if arg == "--data-dir" {
            return args.next().map(PathBuf::from);
        }
        if let Some(dir) = arg.strip_prefix("--data-dir=") {
            return Some(PathBuf::from(dir));
        }
    }
    None
}

/// SIGTERM and SIGINT exit through the normal path, so servers are stopped gracefully.
async fn exit_on_signal(app: tauri::AppHandle) {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut term), Ok(mut int)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) else {
        tracing::warn!("cannot listen for termination signals");
        return;
    };
    tokio::select! {
        _ = term.recv() => {}
        _ = int.recv() => {}
    }
    app.exit(0);
}

/// Logs go to stderr; `GATEHOUSE_LOG` sets the filter (default: info).
fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("GATEHOUSE_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_data_dir_in_both_spellings() {
        let args = |v: &[&str]| {
            v.iter()
                .map(|s| (*s).to_owned())
                .collect::<Vec<_>>()
                .into_iter()
        };
        assert_eq!(
            data_dir_arg(args(&["--data-dir", "/a"])),
            Some(PathBuf::from("/a"))
        );
        assert_eq!(
            data_dir_arg(args(&["-x", "--data-dir=/b"])),
            Some(PathBuf::from("/b"))
        );
        assert_eq!(
            data_dir_arg(args(&["--data-dir"])),
            None,
            "a missing value is not a directory"
        );
    }
}
