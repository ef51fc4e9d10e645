//! Tests of the output-schema validators: the limits, the shared cache, patterns that would
//! backtrack, and checks past their time.

use super::*;
use serde_json::json;

fn tool(name: &str, output_schema: Value) -> Tool {
    serde_json::from_value(
        json!({"name": name, "inputSchema": {"type": "object"}, "outputSchema": output_schema}),
    )
    .expect("tool")
}

fn says(problem: &Option<String>, words: &str) -> bool {
    problem.as_deref().is_some_and(|p| p.contains(words))
}

fn counted(kind: &str) -> Value {
    json!({"type": "object", "properties": {"n": {"type": kind}}, "required": ["n"]})
}

#[tokio::test]
async fn a_validator_is_built_once_per_tool_definition() {
    let schemas = OutputSchemas::new(Limits::default());
    let listed = [tool("count", counted("integer"))];
    schemas.prepare(&listed).await;
    schemas.prepare(&listed).await;
    for _ in 0..3 {
        assert_eq!(
            schemas.check("count", &counted("integer"), &json!({"n": 1})),
            None
        );
    }
    let mismatch = schemas.check("count", &counted("integer"), &json!({"n": "one"}));
    assert!(
        says(&mismatch, "/n"),
        "the cached validator still reports a mismatch"
    );
    assert_eq!(
        schemas.compiled(),
        1,
        "listing twice and checking four results compile the schema once; compiling on \
         every call lets a server make each call as slow as its schema"
    );

    let changed = [tool("count", counted("string"))];
    schemas.prepare(&changed).await;
    assert_eq!(
        schemas.check("count", &counted("string"), &json!({"n": "one"})),
        None,
        "a changed definition is checked against its new schema, not the old validator"
    );
    assert_eq!(
        schemas.compiled(),
        2,
        "the changed definition is built once more"
    );

    let unlisted = counted("boolean");
    assert!(schemas.check("flag", &unlisted, &json!({"n": 1})).is_some());
    assert_eq!(schemas.check("flag", &unlisted, &json!({"n": true})), None);
    assert_eq!(
        schemas.compiled(),
        3,
        "a definition never listed is built on its first check and then reused"
    );
}

#[tokio::test]
async fn a_schema_past_the_limits_is_reported_not_run() {
    let schemas = OutputSchemas::new(Limits::default());
    let mut deep = json!({"type": "integer"});
    for _ in 0..100 {
        deep = json!({"type": "array", "items": deep});
    }
    let many = json!({"anyOf": vec![json!({"type": "string"}); 10_001]});
    let large = json!({"type": "string", "description": "x".repeat(1 << 20)});
    let cases = [
        (deep, "deeper than the limit of 64 levels"),
        (many, "more than the limit of 10000 schema objects"),
        (large, "larger than the limit of 1048576 bytes"),
    ];
    for (schema, limit) in cases {
        schemas.prepare(&[tool("huge", schema.clone())]).await;
        let problem = schemas.check("huge", &schema, &json!(42));
        assert!(
            says(&problem, "was not run") && says(&problem, limit),
            "the result says which limit the schema passed ({limit}): {problem:?}"
        );
    }
    assert_eq!(
        schemas.compiled(),
        0,
        "a schema past a size limit is never handed to the compiler"
    );

    let slow = OutputSchemas::new(Limits {
        compile_time: Duration::ZERO,
        ..Limits::default()
    });
    let schema = counted("integer");
    slow.prepare(&[tool("slow", schema.clone())]).await;
    let problem = slow.check("slow", &schema, &json!({"n": "not checked"}));
    assert!(
        says(&problem, "compiling it took longer"),
        "a schema that compiles too slowly is refused, not run: {problem:?}"
    );
    assert_eq!(
        slow.compiled(),
        1,
        "and it is not compiled again on the next check"
    );
}

/// A back-reference makes `fancy-regex` backtrack: on 25 letters and a `!` this pattern takes
/// about half a second a string, so a hundred of them would hold a thread for most of a
/// minute. The linear engine does not take it, so the schema is not run.
#[tokio::test]
async fn a_pattern_that_needs_backtracking_is_not_run() {
    let schemas = OutputSchemas::new(Limits::default());
    let schema = json!({"type": "array", "items": {"type": "string",
        "pattern": "^(([a-z])+.)+[A-Z]([a-z])+\\2$"}});
    let strings = json!(vec![format!("{}!", "a".repeat(25)); 100]);
    let checking = tokio::task::spawn_blocking(move || schemas.check("bomb", &schema, &strings));
    let problem = tokio::time::timeout(Duration::from_secs(10), checking)
        .await
        .expect("the check ends at once, not after a minute of backtracking")
        .expect("the check");
    assert!(
        says(&problem, "was not run") && says(&problem, "regex"),
        "the schema is refused for its pattern: {problem:?}"
    );
}

#[tokio::test]
async fn nested_quantifiers_run_in_linear_time() {
    let schemas = OutputSchemas::new(Limits::default());
    let schema = json!({"type": "string", "pattern": "^(a+)+$"});
    let evil = json!(format!("{}!", "a".repeat(100_000)));
    let problem = tokio::time::timeout(
        Duration::from_secs(10),
        schemas.check_off_runtime("nested", &schema, &evil),
    )
    .await
    .expect("a linear-time match");
    assert!(
        says(&problem, "does not match"),
        "the pattern still runs, and the mismatch is reported: {problem:?}"
    );
    let fine = json!("a".repeat(100_000));
    assert_eq!(
        schemas.check_off_runtime("nested", &schema, &fine).await,
        None
    );
}

/// The check runs on a blocking thread, so the runtime (here one thread) goes on meanwhile
/// and its time limit can end the wait.
#[tokio::test(flavor = "current_thread")]
async fn a_check_past_its_time_is_reported_and_the_runtime_goes_on() {
    let schemas = OutputSchemas::new(Limits {
        check_time: Duration::from_millis(1),
        ..Limits::default()
    });
    let schema = json!({"type": "array", "items": {"type": "string", "pattern": "^a+$"}});
    let many = json!(vec!["aaaa"; 1_000_000]);
    let problem = schemas.check_off_runtime("many", &schema, &many).await;
    assert!(
        says(&problem, "not run to the end") && says(&problem, "1ms"),
        "checking a million strings takes longer than 1 ms, and says so: {problem:?}"
    );
    let schema = json!({"type": "array", "items": {"type": "integer"}});
    let wrong = json!(vec!["x"; 100]);
    let problem = OutputSchemas::new(Limits::default())
        .check_off_runtime("wrong", &schema, &wrong)
        .await;
    assert!(
        says(&problem, "/19") && !says(&problem, "/20") && says(&problem, "and more"),
        "at most 20 problems are named: {problem:?}"
    );
}

#[test]
fn an_unknown_dialect_is_reported_not_guessed() {
    let schemas = OutputSchemas::new(Limits::default());
    let schema = json!({"$schema": "https://dialects.example.test/mine", "type": "string"});
    let problem = schemas.check("dialect", &schema, &json!(42));
    assert!(
        says(&problem, "not a valid schema"),
        "a dialect the validator does not know is an error, never a guess: {problem:?}"
    );
}

#[test]
fn a_remote_ref_is_never_fetched() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("listener");
    listener.set_nonblocking(true).expect("non-blocking");
    let address = listener.local_addr().expect("address");
    let schemas = OutputSchemas::new(Limits::default());
    let schema = json!({"$ref": format!("http://{address}/schema.json")});
    let problem = schemas.check("remote", &schema, &json!(1));
    assert!(
        says(&problem, "not a valid schema"),
        "an unresolvable reference makes the schema unusable: {problem:?}"
    );
    assert!(
        matches!(listener.accept(), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock),
        "a server's schema must not make the client connect to a URL of its choosing"
    );
}
