//! Validators for tools' `outputSchema`s, which come from the server and so are bounded like any
//! other input. Each schema is built into a validator once per tool definition and kept in a
//! process-wide cache keyed by the tool's name and the SHA-256 of the schema, so a changed
//! definition gets a new validator; the cache is bounded in entries and in schema bytes, least
//! recently used out first (`bounded_cache`). Before it is compiled a schema must stay within
//! [`Limits`]: its size (1 MiB), its JSON nesting depth (64 levels) and its number of schema
//! objects (10 000). Compiling is timed (2 s), and when tools are listed it runs off the async
//! runtime (`spawn_blocking` under a timeout). A schema past a limit is never run: the refusal,
//! naming the limit, is what a check reports (a tool result's `schema_problem`). Remote `$ref`s
//! are never fetched (the validator is built offline).
//!
//! A schema's `pattern`s and `patternProperties` are the server's regular expressions, run on
//! data the server also chooses. They run on the `regex` crate, which matches in time linear in
//! the input, never on the crate's default `fancy-regex`, which backtracks: jsonschema's
//! `ValidationOptions::with_pattern_options(PatternOptions::regex())`, with the compiled size
//! and the lazy DFA's cache bounded (`PatternOptions::size_limit`, `dfa_size_limit`). A pattern
//! that needs backtracking (look-around, back-references) does not compile there, so its schema
//! is reported as not run. A tool result is checked on a blocking thread under
//! [`Limits::check_time`] (2 s; [`OutputSchemas::check_off_runtime`]), and a mismatch names at
//! most 20 problems.

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
mod tests;
