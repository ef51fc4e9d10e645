//! The desktop app's entry point. The Tauri context (config, icons, the built UI) is generated
//! here rather than in the library, so the bindings generator builds without a built UI.

#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() -> std::process::ExitCode {
    // Before any thread starts: it sets an environment variable.
    gatehouse_app::webkit_compositing::configure();
    match gatehouse_app::run(tauri::generate_context!()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            std::process::ExitCode::FAILURE
        }
    }
}
