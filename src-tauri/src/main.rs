//! The desktop app's entry point. The Tauri context (config, icons, the built UI) is generated
//! here rather than in the library, so the bindings generator builds without a built UI.

#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() -> std::process::ExitCode {
    // Before any thread starts: it sets an environment variable.
    gatehouse_app::webkit_compositing::configure();
    let output = match output_guard() {
        Ok(guard) => guard,
        Err(message) => {
            eprintln!("error: {message}");
            return std::process::ExitCode::FAILURE;
        }
    };
    match gatehouse_app::run(tauri::generate_context!(), output) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// The app's stderr goes through a filter that withholds Tauri's invoke key (on Unix).
#[cfg(unix)]
fn output_guard() -> Result<gatehouse_app::OutputGuard, String> {
    gatehouse_app::stderr_filter::install().map_err(|e| format!("cannot filter stderr: {e}"))
}

#[cfg(not(unix))]
fn output_guard() -> Result<gatehouse_app::OutputGuard, String> {
    Ok(gatehouse_app::OutputGuard)
}
