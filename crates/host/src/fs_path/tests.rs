//! Reading values as paths: what is a path, lexical normalisation, `file:` URIs, `~`, and
//! symbolic links resolved on a real directory tree.

use std::path::{Path, PathBuf};

use super::*;

fn absolute(lexical: &str, resolved: &str) -> PathValue {
    PathValue::Absolute {
        lexical: lexical.into(),
        resolved: resolved.into(),
    }
}

/// A real directory (its canonical path) holding `projects/` and `secret/`.
fn tree() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    std::fs::create_dir_all(root.join("projects/app")).expect("projects");
    std::fs::create_dir_all(root.join("secret")).expect("secret");
    (dir, root.display().to_string())
}

#[test]
fn dots_and_repeated_separators_are_resolved_lexically() {
    let cases = [
        ("/a/b/../c", "/a/c"),
        ("/a//b/./c/", "/a/b/c"),
        ("/..", "/"),
        ("/a/../../b", "/b"),
        ("./a//b", "a/b"),
        (".", "."),
        ("a/./b/..", "a"),
    ];
    for (raw, normal) in cases {
        assert_eq!(lexical(Path::new(raw)), Ok(PathBuf::from(normal)), "{raw}");
    }
    for climbing in ["..", "../x", "./../x", "a/../../x"] {
        assert_eq!(
            lexical(Path::new(climbing)),
            Err(Escape::ClimbsAbove),
            "{climbing}"
        );
    }
}

#[test]
fn only_values_that_look_like_paths_are_read_as_paths() {
    for plain in [
        "hello",
        "prod-eu",
        "https://example.com/a/../b",
        "mailto:a@b",
        r"C:\Users\x",
        r"..\..\x",
        r"projects\..\x",
        "",
    ] {
        assert_eq!(read(plain), PathValue::NotAPath, "{plain:?}");
    }
    assert_eq!(read("./a//b/"), PathValue::Relative("a/b".into()));
    assert_eq!(
        read("docs/guide.md"),
        PathValue::Relative("docs/guide.md".into())
    );
    for climbing in ["../x", "./../x", "a/../../x", ".."] {
        assert_eq!(
            read(climbing),
            PathValue::Escapes(Escape::ClimbsAbove),
            "{climbing}"
        );
    }
}

#[test]
fn home_is_expanded() {
    let home = dirs::home_dir().expect("a home directory");
    let home = lexical(&home).expect("absolute").display().to_string();
    let PathValue::Absolute { lexical, .. } = read("~/projects/../.ssh/id") else {
        panic!("~/ is a path")
    };
    assert_eq!(lexical, format!("{home}/.ssh/id"));
    assert!(matches!(read("~"), PathValue::Absolute { lexical, .. } if lexical == home));
}

#[test]
fn file_uris_are_decoded_then_normalised() {
    let (_dir, root) = tree();
    for (uri, lexical) in [
        (
            format!("file://{root}/projects/%2e%2e/secret/k"),
            "secret/k",
        ),
        (format!("file://{root}/projects/.%2E/secret/k"), "secret/k"),
        (format!("file://{root}/projects/..%2Fsecret/k"), "secret/k"),
        (format!("file://{root}/projects//app/./x"), "projects/app/x"),
        (
            format!("file://localhost{root}/projects/app"),
            "projects/app",
        ),
        (format!("file:{root}/projects/app"), "projects/app"),
        (format!("FILE://{root}/projects/app"), "projects/app"),
        (format!("file://{root}/projects/a%20b"), "projects/a b"),
    ] {
        let want = format!("{root}/{lexical}");
        assert_eq!(read(&uri), absolute(&want, &want), "{uri}");
    }
    assert!(matches!(
        read("file://attacker.example/etc/passwd"),
        PathValue::Escapes(Escape::NotLocal(_))
    ));
    assert_eq!(
        read(&format!("file://{root}/a%00b")),
        PathValue::Escapes(Escape::Nul)
    );
}

#[test]
fn backslashes_are_ordinary_characters() {
    let (_dir, root) = tree();
    let value = format!(r"{root}/projects/a\..\..\secret");
    let named = format!(r"{root}/projects/a\..\..\secret");
    assert_eq!(read(&value), absolute(&named, &named));
}

#[test]
fn symbolic_links_are_followed_as_the_kernel_would() {
    let (_dir, root) = tree();
    let at = |p: &str| format!("{root}/{p}");
    std::os::unix::fs::symlink("../secret", at("projects/out")).expect("link");
    std::os::unix::fs::symlink(at("projects/app"), at("projects/in")).expect("link");

    // A link out of the tree, for an existing file and for one not written yet.
    std::fs::write(at("secret/key"), "k").expect("file");
    for (value, resolved) in [
        ("projects/out/key", "secret/key"),
        ("projects/out/new/file", "secret/new/file"),
        ("projects/in/x", "projects/app/x"),
        // `link/..` is the parent of the link's target.
        ("projects/out/../projects/app", "projects/app"),
        ("projects/in/../../secret", "secret"),
        // A missing directory and `..` bring the walk back to a link, which is followed.
        ("projects/missing/../out/key", "secret/key"),
    ] {
        let PathValue::Absolute {
            resolved: found, ..
        } = read(&at(value))
        else {
            panic!("{value} is a path")
        };
        assert_eq!(found, at(resolved), "{value}");
    }
    let PathValue::Absolute { lexical, .. } = read(&at("projects/out/../projects/app")) else {
        panic!("a path")
    };
    assert_eq!(
        lexical,
        at("projects/projects/app"),
        "lexically, `..` drops `out`"
    );
}

#[test]
fn a_loop_of_links_and_an_overlong_value_cannot_be_placed() {
    let (_dir, root) = tree();
    std::os::unix::fs::symlink(format!("{root}/b"), format!("{root}/a")).expect("link");
    std::os::unix::fs::symlink(format!("{root}/a"), format!("{root}/b")).expect("link");
    assert_eq!(
        read(&format!("{root}/a/x")),
        PathValue::Escapes(Escape::LinkLoop)
    );
    let long = format!("/{}", "a/".repeat(MAX_PATH_BYTES));
    assert_eq!(read(&long), PathValue::Escapes(Escape::TooLong));
    assert_eq!(read("/a\0b"), PathValue::Escapes(Escape::Nul));
}
