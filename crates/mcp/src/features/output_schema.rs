//! Validators for tools' `outputSchema`s, which come from the server and so are bounded like any
//! other input. Each schema is built into a validator once per tool definition and kept in a
//! process-wide cache keyed by the tool's name and the SHA-256 of the schema, so a changed
//! definition gets a new validator; the cache is bounded in entries and in schema bytes, least
//! recently used out first (`bounded_cache`). Before it is compiled a schema must stay within
//! [`Limits`]: its size, its JSON nesting depth and its number of schema objects. Compiling is
//! timed, and when tools are listed it runs off the async runtime (`spawn_blocking` under a
//! timeout). A schema past a limit is never run: the refusal, naming the limit, is what a check
//! reports. Remote `$ref`s are never fetched (the validator is built offline).
//!
//! A schema's `pattern`s and `patternProperties` are the server's regular expressions, run on
//! data the server also chooses. They run on the `regex` crate, which matches in time linear in
//! the input, never on the crate's default `fancy-regex`, which backtracks: jsonschema's
//! `ValidationOptions::with_pattern_options(PatternOptions::regex())`, with the compiled size
//! and the lazy DFA's cache bounded (`PatternOptions::size_limit`, `dfa_size_limit`). A pattern
//! that needs backtracking (look-around, back-references) does not compile there, so its schema
//! is reported as not run. A tool result is checked on a blocking thread under
//! [`Limits::check_time`] ([`OutputSchemas::check_off_runtime`]).

mod bounded_cache;

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant};

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::types::Tool;
use bounded_cache::BoundedCache;

/// How far a server's `outputSchema` may go before it is refused.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The schema's size as compact JSON.
    pub max_bytes: usize,
    /// How deeply its JSON objects and arrays may nest.
    pub max_depth: usize,
    /// How many JSON objects (subschemas and keyword maps) it may hold.
    pub max_subschemas: usize,
    /// How long compiling it may take.
    pub compile_time: Duration,
    /// How long checking one result against it may take, off the async runtime.
    pub check_time: Duration,
}

/// The most a server's one regular expression may take compiled, and its lazy DFA's cache.
const PATTERN_SIZE_LIMIT: usize = 2 << 20;
const PATTERN_DFA_LIMIT: usize = 1 << 20;

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_bytes: 1 << 20,
            max_depth: 64,
            max_subschemas: 10_000,
            compile_time: Duration::from_secs(2),
            check_time: Duration::from_secs(2),
        }
    }
}

/// Why a schema was not built into a validator.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SchemaRefused {
    #[error("it is larger than the limit of {limit} bytes")]
    TooLarge { limit: usize },
    #[error("it nests deeper than the limit of {limit} levels")]
    TooDeep { limit: usize },
    #[error("it has more than the limit of {limit} schema objects")]
    TooManySubschemas { limit: usize },
    #[error("compiling it took longer than the limit of {limit:?}")]
    TooSlow { limit: Duration },
    #[error("it is not a valid schema: {0}")]
    Invalid(String),
}

type Prepared = Result<Arc<jsonschema::Validator>, SchemaRefused>;

/// A tool's name and the SHA-256 of its schema.
type Key = (String, [u8; 32]);

/// How many definitions the cache keeps, and how many schema bytes in all.
const MAX_ENTRIES: usize = 1024;
const MAX_CACHED_BYTES: usize = 64 << 20;

/// A bounded cache of output-schema validators.
pub struct OutputSchemas {
    limits: Limits,
    validators: BoundedCache<Key, Prepared>,
    compiled: AtomicUsize,
}

/// The process-wide cache `tools/call` results are checked with.
pub fn shared() -> &'static OutputSchemas {
    static SHARED: LazyLock<OutputSchemas> =
        LazyLock::new(|| OutputSchemas::new(Limits::default()));
    &SHARED
}

impl OutputSchemas {
    pub fn new(limits: Limits) -> Self {
        Self {
            limits,
            validators: BoundedCache::new(MAX_ENTRIES, MAX_CACHED_BYTES),
            compiled: AtomicUsize::new(0),
        }
    }

    /// How many schemas this cache has compiled (or started to) so far.
    pub fn compiled(&self) -> usize {
        self.compiled.load(Ordering::Relaxed)
    }

    /// Builds the validators of listed tools that are not cached yet, off the async runtime.
    pub async fn prepare(&self, tools: &[Tool]) {
        for tool in tools {
            let Some(schema) = tool.extra.get("outputSchema") else {
                continue;
            };
            let Err((key, bytes)) = self.lookup(&tool.name, schema) else {
                continue;
            };
            let prepared = match within_shape(schema, &self.limits) {
                Ok(()) => self.compile_off_runtime(schema).await,
                Err(refused) => Err(refused),
            };
            if let Err(why) = &prepared {
                tracing::warn!(
                    "the outputSchema of `{}` will not be checked: {why}",
                    tool.name
                );
            }
            self.validators.insert(key, prepared, bytes);
        }
    }

    /// Checks `structured` against the `schema` of tool `name`: why it does not match, or why
    /// the schema was not run. A definition not prepared yet is built here, within the limits.
    pub fn check(&self, name: &str, schema: &Value, structured: &Value) -> Option<String> {
        match self.mismatches(name, schema, structured) {
            Ok(problems) if problems.is_empty() => None,
            Ok(problems) => Some(format!(
                "structuredContent does not match the outputSchema: {}",
                problems.join("; ")
            )),
            Err(refused) => Some(format!(
                "the outputSchema of `{name}` was not run: {refused}"
            )),
        }
    }

    /// Like [`OutputSchemas::check`], with the validator built (if it is not cached) and run on
    /// blocking threads, each under its time limit: a check past [`Limits::check_time`] is
    /// reported as not run to the end (the thread finishes on its own; its answer is dropped).
    pub async fn check_off_runtime(
        &self,
        name: &str,
        schema: &Value,
        structured: &Value,
    ) -> Option<String> {
        let prepared = match self.lookup(name, schema) {
            Ok(prepared) => prepared,
            Err((key, bytes)) => {
                let prepared = match within_shape(schema, &self.limits) {
                    Ok(()) => self.compile_off_runtime(schema).await,
                    Err(refused) => Err(refused),
                };
                self.validators.insert(key, prepared.clone(), bytes);
                prepared
            }
        };
        let validator = match prepared {
            Ok(validator) => validator,
            Err(refused) => {
                return Some(format!(
                    "the outputSchema of `{name}` was not run: {refused}"
                ));
            }
        };
        let value = structured.clone();
        let checking = tokio::task::spawn_blocking(move || problems(&validator, &value));
        match tokio::time::timeout(self.limits.check_time, checking).await {
            Ok(Ok(problems)) if problems.is_empty() => None,
            Ok(Ok(problems)) => Some(format!(
                "structuredContent does not match the outputSchema: {}",
                problems.join("; ")
            )),
            Ok(Err(failed)) => Some(format!(
                "checking against the outputSchema of `{name}` failed: {failed}"
            )),
            Err(_) => Some(format!(
                "the outputSchema of `{name}` was not run to the end: checking took longer \
                 than the limit of {:?}",
                self.limits.check_time
            )),
        }
    }

    /// Where `value` does not match `schema` (the schema of `name`, which keys the cache):
    /// each problem with its place, none when it matches; `Err` says why the schema was not
    /// run. Any JSON Schema can be checked this way, such as a tool's `inputSchema`.
    pub fn mismatches(
        &self,
        name: &str,
        schema: &Value,
        value: &Value,
    ) -> Result<Vec<String>, String> {
        let prepared = self.lookup(name, schema).unwrap_or_else(|(key, bytes)| {
            let prepared = within_shape(schema, &self.limits).and_then(|()| {
                self.compiled.fetch_add(1, Ordering::Relaxed);
                compile(schema, &self.limits)
            });
            self.validators.insert(key, prepared.clone(), bytes);
            prepared
        });
        let validator = prepared.map_err(|refused| refused.to_string())?;
        Ok(problems(&validator, value))
    }

    /// Compiles on a blocking thread, refusing the schema if that takes past the limit (the
    /// thread runs on, and its validator is dropped).
    async fn compile_off_runtime(&self, schema: &Value) -> Prepared {
        let (schema, limits) = (schema.clone(), self.limits);
        self.compiled.fetch_add(1, Ordering::Relaxed);
        let compiling = tokio::task::spawn_blocking(move || compile(&schema, &limits));
        match tokio::time::timeout(limits.compile_time, compiling).await {
            Ok(Ok(prepared)) => prepared,
            Ok(Err(failed)) => Err(SchemaRefused::Invalid(failed.to_string())),
            Err(_) => Err(SchemaRefused::TooSlow {
                limit: limits.compile_time,
            }),
        }
    }

    /// The cache key of a schema and its size, or `TooLarge` as soon as it passes the limit.
    fn key(&self, name: &str, schema: &Value) -> Result<(Key, usize), SchemaRefused> {
        let mut digest = LimitedDigest {
            hasher: Sha256::new(),
            bytes: 0,
            limit: self.limits.max_bytes,
        };
        serde_json::to_writer(&mut digest, schema).map_err(|_| SchemaRefused::TooLarge {
            limit: self.limits.max_bytes,
        })?;
        Ok((
            (name.to_owned(), digest.hasher.finalize().into()),
            digest.bytes,
        ))
    }

    /// What is known of this definition (a validator, or why there is none), or the key and
    /// size to build it under.
    fn lookup(&self, name: &str, schema: &Value) -> Result<Prepared, (Key, usize)> {
        match self.key(name, schema) {
            Ok((key, bytes)) => self.validators.get(&key).ok_or((key, bytes)),
            Err(refused) => Ok(Err(refused)),
        }
    }
}

/// A writer that hashes what it is given and fails once more than `limit` bytes came.
struct LimitedDigest {
    hasher: Sha256,
    bytes: usize,
    limit: usize,
}

impl Write for LimitedDigest {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.bytes += buf.len();
        if self.bytes > self.limit {
            return Err(std::io::Error::other("over the size limit"));
        }
        self.hasher.update(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// How many problems a check names; past that it says how the list goes on.
const MAX_PROBLEMS: usize = 20;

/// Where `value` does not match: each problem with its place, at most [`MAX_PROBLEMS`].
fn problems(validator: &jsonschema::Validator, value: &Value) -> Vec<String> {
    let mut found: Vec<String> = validator
        .iter_errors(value)
        .take(MAX_PROBLEMS + 1)
        .map(|e| format!("{} at `{}`", e, e.instance_path()))
        .collect();
    if found.len() > MAX_PROBLEMS {
        found.truncate(MAX_PROBLEMS);
        found.push("and more".to_owned());
    }
    found
}

/// Compiles the schema offline, its patterns for the linear-time `regex` engine, and times it.
fn compile(schema: &Value, limits: &Limits) -> Prepared {
    let started = Instant::now();
    let patterns = jsonschema::PatternOptions::regex()
        .size_limit(PATTERN_SIZE_LIMIT)
        .dfa_size_limit(PATTERN_DFA_LIMIT);
    let validator = jsonschema::options()
        .offline()
        .with_pattern_options(patterns)
        .build(schema)
        .map_err(|e| SchemaRefused::Invalid(e.to_string()))?;
    if started.elapsed() > limits.compile_time {
        return Err(SchemaRefused::TooSlow {
            limit: limits.compile_time,
        });
    }
    Ok(Arc::new(validator))
}

/// Walks the schema without recursion, counting its objects and measuring its depth.
fn within_shape(schema: &Value, limits: &Limits) -> Result<(), SchemaRefused> {
    let mut objects = 0;
    let mut stack = vec![(schema, 1)];
    while let Some((value, depth)) = stack.pop() {
        match value {
            Value::Object(map) => {
                objects += 1;
                stack.extend(map.values().map(|child| (child, depth + 1)));
            }
            Value::Array(items) => stack.extend(items.iter().map(|child| (child, depth + 1))),
            _ => continue,
        }
        if depth > limits.max_depth {
            return Err(SchemaRefused::TooDeep {
                limit: limits.max_depth,
            });
        }
        if objects > limits.max_subschemas {
            return Err(SchemaRefused::TooManySubschemas {
                limit: limits.max_subschemas,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
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
        let checking =
            tokio::task::spawn_blocking(move || schemas.check("bomb", &schema, &strings));
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
}
