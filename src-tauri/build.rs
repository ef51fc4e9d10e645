//! Tauri's build step: embeds the config, icons and capabilities.
fn main() {
    tauri_build::build();
}
