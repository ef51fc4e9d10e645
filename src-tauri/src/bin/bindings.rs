//! Generates the UI's TypeScript bindings, or with `--check` fails when the committed ones are
//! stale. Run from the repository root.

use std::path::Path;
use std::process::ExitCode;

use gatehouse_app::bindings::{BINDINGS_PATH, export_bindings};

fn main() -> ExitCode {
    let check = std::env::args().any(|a| a == "--check");
    let target = Path::new(BINDINGS_PATH);
    if !check {
        return match export_bindings(target) {
            Ok(()) => {
                println!("wrote {BINDINGS_PATH}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: cannot write {BINDINGS_PATH}: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let fresh = std::env::temp_dir().join(format!("gatehouse-bindings-{}.ts", std::process::id()));
    let result = export_bindings(&fresh).and_then(|()| {
        let new = std::fs::read_to_string(&fresh).map_err(|e| e.to_string())?;
        let old = std::fs::read_to_string(target).unwrap_or_default();
        Ok(new == old)
    });
    let _ = std::fs::remove_file(&fresh);
    match result {
        Ok(true) => {
            println!("{BINDINGS_PATH} is up to date");
            ExitCode::SUCCESS
        }
        Ok(false) => {
            eprintln!(
                "error: {BINDINGS_PATH} is stale; regenerate it with `cargo run -p gatehouse-app --bin gatehouse-bindings`"
            );
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("error: cannot generate bindings: {e}");
            ExitCode::FAILURE
        }
    }
}
