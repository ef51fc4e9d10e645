//! Tauri's build step: embeds the config, icons and capabilities, and declares the app's own
//! commands in its manifest so that Tauri checks each against the capabilities of the webview
//! that sends it (see `src/ipc_commands.rs`).

#[path = "src/ipc_commands.rs"]
mod ipc_commands;

fn main() {
    let attributes = tauri_build::Attributes::new()
        .app_manifest(tauri_build::AppManifest::new().commands(ipc_commands::IPC_COMMANDS));
    if let Err(e) = tauri_build::try_build(attributes) {
        // A build script reports its failure by panicking, with the cause in the message.
        panic!("tauri-build failed: {e:#}");
    }
}
