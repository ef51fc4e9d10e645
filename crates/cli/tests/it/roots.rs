//! `gatehouse server add --root`: a relative root is made absolute with `..` resolved as the
//! shell would; a root that does not exist is kept but the person is told it is not given to
//! the server for now, and why; an existing directory brings no note.

use crate::support::{command, ok_json, stderr, stdout};

#[test]
fn a_missing_root_is_kept_and_the_person_told_it_is_withheld() {
    let dir = tempfile::tempdir().expect("temp dir");
    let base = std::fs::canonicalize(dir.path()).expect("canonical");
    std::fs::create_dir(base.join("work")).expect("work");
    std::fs::create_dir(base.join("here")).expect("here");
    let data = base.join("data");
    let added = command(&data)
        .current_dir(base.join("here"))
        .args(["server", "add", "fs", "--command", "node"])
        .args(["--root", "../work", "--root", "../later"])
        .output()
        .expect("the binary runs");
    assert!(added.status.success(), "{}", stderr(&added));
    assert!(stdout(&added).contains("added server `fs`"));
    let said = stderr(&added);
    let later = format!("file://{}/later", base.display());
    assert!(
        said.contains(&format!(
            "the root {later} is not given to `fs` for now: it does not exist"
        )),
        "{said}"
    );
    assert_eq!(
        said.lines().count(),
        1,
        "no note for the existing root: {said}"
    );
    let listed = ok_json(&data, &["server", "list", "--json"]);
    assert_eq!(
        listed[0]["roots"],
        serde_json::json!([format!("file://{}/work", base.display()), later]),
        "`..` resolved against the current directory"
    );
}
