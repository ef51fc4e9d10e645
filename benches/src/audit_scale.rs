//! The audit log at scale: a log filled to N rows (1,000,000 for the published figures), then
//! full-text searches and filtered listings timed one by one (p50, p95 per kind of query), and
//! `audit verify` over the whole chain in rows/s.
//!
//! The rows are written through the real writer, [`gatehouse_host::AuditLog::append_all`], in
//! batches of [`BATCH`] events: the same redaction, keyed chain (an HMAC per row) and FTS
//! trigger as every audited call, one transaction per batch. They describe synthetic tool calls
//! shaped as the gate records them ([`crate::synthetic_calls`]), the same log every run.
//!
//! The queries are the engine's own ([`AuditLog::search`], [`AuditLog::list`]) with their
//! default limit of 100 rows, as the Audit page and `gatehouse audit` make them.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use gatehouse_host::secrets::{KeyringStore, SecretStore};
use gatehouse_host::{AuditFilter, AuditLog, Host, HostOptions, VerifyReport};
use serde::Serialize;

use crate::BoxError;
use crate::gated::newest_seq;
use crate::memory_secrets::MemorySecrets;
use crate::stats::percentile;
use crate::synthetic_calls::{SERVERS, Synthetic};

/// A kind of search: its name, and how to draw one query's text.
type SearchKind = (&'static str, fn(&mut Synthetic) -> String);
/// A kind of listing: its name, and how to draw one query's filter.
type ListKind = (&'static str, fn(&mut Synthetic) -> AuditFilter);

/// Events per `append_all` transaction while filling.
pub const BATCH: usize = 10_000;

/// What to run.
#[derive(Debug, Clone)]
pub struct Options {
    /// Rows the log must hold before the queries.
    pub rows: u64,
    /// Queries of each kind.
    pub queries: usize,
    /// A data directory to fill (or to reuse, topping it up to `rows`); a temporary one if
    /// `None`.
    pub dir: Option<PathBuf>,
    /// Report the filling's progress on stderr.
    pub progress: bool,
}

/// One kind of query, timed.
#[derive(Debug, Clone, Serialize)]
pub struct QueryStats {
    pub query: &'static str,
    pub queries: usize,
    pub p50_ms: f64,
    pub p95_ms: f64,
    pub max_ms: f64,
    /// Rows returned per query, on average (at most the limit, 100).
    pub mean_rows: f64,
}

/// All queries of a family (searches, listings) together, and each kind on its own.
#[derive(Debug, Clone, Serialize)]
pub struct Family {
    pub queries: usize,
    pub p50_ms: f64,
    pub p95_ms: f64,
    /// The highest p95 of one kind of query, so a slow kind is not hidden by fast ones.
    pub worst_p95_ms: f64,
    pub by_query: Vec<QueryStats>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Verify {
    pub rows: u64,
    pub seconds: f64,
    pub rows_per_sec: f64,
}

/// The section's figures.
#[derive(Debug, Clone, Serialize)]
pub struct AuditScale {
    pub rows: u64,
    /// Rows written by this run (0 when a filled directory was reused).
    pub written: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub append_rows_per_sec: Option<f64>,
    /// The database and its WAL, in MiB.
    pub database_mib: f64,
    pub search: Family,
    pub list: Family,
    /// Listings whose filter matches no row, so the whole index range (or table) is read: the
    /// worst case, shown apart and not judged against the target.
    pub list_unmatched: Family,
    pub verify: Verify,
}

/// Fills (or tops up) the log, then times the queries and `verify`.
pub async fn run(options: Options) -> Result<AuditScale, BoxError> {
    let temp;
    // A kept directory keeps its audit key in the OS keyring, as the app does, so a later run
    // that reuses it can still check the keyed rows (without a keyring, its rows are unkeyed);
    // a temporary one needs no keyring.
    let (dir, secrets): (PathBuf, Arc<dyn SecretStore>) = match &options.dir {
        Some(dir) => (dir.clone(), Arc::new(KeyringStore)),
        None => {
            temp = tempfile::Builder::new()
                .prefix("gatehouse-bench-audit-")
                .tempdir()?;
            (
                temp.path().to_path_buf(),
                Arc::new(MemorySecrets::default()),
            )
        }
    };
    let host = Host::open(HostOptions {
        data_dir: Some(dir),
        live_sessions: false,
        secrets: Some(secrets),
        ..HostOptions::default()
    })
    .await?;
    let audit = host.audit().clone();
    let mut synthetic = Synthetic::new();
    let present = newest_seq(&host).await?;
    let mut written = 0;
    let fill_started = Instant::now();
    while present + written < options.rows {
        let wanted = usize::try_from(options.rows - present - written)?.min(BATCH);
        let mut events = Vec::with_capacity(wanted + 2);
        while events.len() < wanted {
            synthetic.call(&mut events);
        }
        // A call's rows stay together; the last call may take the log just past `rows`.
        written += u64::try_from(audit.append_all(events).await?.len())?;
        if options.progress && (present + written) % 100_000 < BATCH as u64 {
            eprintln!("  audit log: {} rows", present + written);
        }
    }
    // Rows are indexed for search off the appending path; a search indexes what is left
    // first. That is done here, untimed by the searches and counted in the filling rate, as
    // the indexing is part of what writing a row costs.
    audit.search("index", Some(1)).await?;
    let append_rows_per_sec =
        (written > 0).then(|| written as f64 / fill_started.elapsed().as_secs_f64());
    let rows = present + written;

    if options.progress {
        eprintln!("  timing searches and listings…");
    }
    let search = searches(&audit, &mut synthetic, options.queries).await?;
    let list = listings(&audit, &mut synthetic, options.queries).await?;
    let list_unmatched =
        unmatched_listings(&audit, &mut synthetic, options.queries.div_ceil(10)).await?;
    if options.progress {
        eprintln!("  verifying the chain…");
    }
    let started = Instant::now();
    let verified = audit.verify().await?;
    let seconds = started.elapsed().as_secs_f64();
    let verify = match verified {
        VerifyReport::Intact { rows: checked } if checked == rows => Verify {
            rows,
            seconds,
            rows_per_sec: rows as f64 / seconds.max(f64::MIN_POSITIVE),
        },
        VerifyReport::Intact { rows: checked } => {
            return Err(format!("verify checked {checked} rows, the log holds {rows}").into());
        }
        VerifyReport::Broken { seq, reason } => {
            return Err(format!("the filled log does not verify at row {seq}: {reason}").into());
        }
        VerifyReport::Unverified { reason, .. } => {
            return Err(format!("the filled log is not verified: {reason}").into());
        }
    };
    let database_mib = database_size(&host) as f64 / (1024.0 * 1024.0);
    host.store().close().await;
    Ok(AuditScale {
        rows,
        written,
        append_rows_per_sec,
        database_mib,
        search,
        list,
        list_unmatched,
        verify,
    })
}

/// The database file and its WAL, in bytes.
fn database_size(host: &Host) -> u64 {
    let path = host.store().path();
    let wal = path.with_extension("db-wal");
    [path.to_path_buf(), wal]
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum()
}

async fn searches(
    audit: &AuditLog,
    synthetic: &mut Synthetic,
    n: usize,
) -> Result<Family, BoxError> {
    let mut by_query = Vec::new();
    let mut all = Vec::new();
    let kinds: [SearchKind; 5] = [
        ("one word", |s| s.word()),
        ("two words", |s| format!("{} {}", s.word(), s.word())),
        ("a server's name", |s| SERVERS[s.server()].to_owned()),
        ("a tool's name", |s| {
            let server = s.server();
            s.tool(server)
        }),
        ("a prefix (3 letters*)", |s| {
            let word = s.word();
            format!("{}*", &word[..3.min(word.len())])
        }),
    ];
    for (query, make) in kinds {
        let texts: Vec<String> = (0..n).map(|_| make(synthetic)).collect();
        let mut timings = Vec::with_capacity(n);
        let mut returned = 0;
        for text in &texts {
            let t0 = Instant::now();
            returned += audit.search(text, None).await?.len();
            timings.push(t0.elapsed());
        }
        all.extend_from_slice(&timings);
        by_query.push(stats(query, timings, returned));
    }
    Ok(family(by_query, &all))
}

async fn listings(
    audit: &AuditLog,
    synthetic: &mut Synthetic,
    n: usize,
) -> Result<Family, BoxError> {
    let kinds: [ListKind; 4] = [
        ("server and tool", |s| {
            let server = s.server();
            AuditFilter {
                server: Some(SERVERS[server].to_owned()),
                tool: Some(s.tool(server)),
                ..AuditFilter::default()
            }
        }),
        ("server", |s| AuditFilter {
            server: Some(SERVERS[s.server()].to_owned()),
            ..AuditFilter::default()
        }),
        ("tool", |s| {
            let server = s.server();
            AuditFilter {
                tool: Some(s.tool(server)),
                ..AuditFilter::default()
            }
        }),
        ("source", |s| AuditFilter {
            source: Some(s.source().to_owned()),
            ..AuditFilter::default()
        }),
    ];
    timed_listings(audit, synthetic, n, &kinds).await
}

async fn timed_listings(
    audit: &AuditLog,
    synthetic: &mut Synthetic,
    n: usize,
    kinds: &[ListKind],
) -> Result<Family, BoxError> {
    let mut by_query = Vec::new();
    let mut all = Vec::new();
    for &(query, make) in kinds {
        let filters: Vec<AuditFilter> = (0..n)
            .map(|_| AuditFilter {
                limit: Some(100),
                ..make(synthetic)
            })
            .collect();
        let mut timings = Vec::with_capacity(n);
        let mut returned = 0;
        for filter in &filters {
            let t0 = Instant::now();
            returned += audit.list(filter).await?.len();
            timings.push(t0.elapsed());
        }
        all.extend_from_slice(&timings);
        by_query.push(stats(query, timings, returned));
    }
    Ok(family(by_query, &all))
}

async fn unmatched_listings(
    audit: &AuditLog,
    synthetic: &mut Synthetic,
    n: usize,
) -> Result<Family, BoxError> {
    let kinds: [ListKind; 2] = [
        ("server + another's tool", |s| {
            let server = s.server();
            AuditFilter {
                server: Some(SERVERS[server].to_owned()),
                // The next server's tools act on another object: no row has this pair.
                tool: Some(s.tool(server + 1)),
                ..AuditFilter::default()
            }
        }),
        ("an unused source", |_| AuditFilter {
            source: Some("gateway".to_owned()),
            ..AuditFilter::default()
        }),
    ];
    timed_listings(audit, synthetic, n, &kinds).await
}

fn nanos(d: &Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

fn ms(ns: u64) -> f64 {
    ns as f64 / 1e6
}

fn stats(query: &'static str, timings: Vec<Duration>, returned: usize) -> QueryStats {
    let mut sorted: Vec<u64> = timings.iter().map(nanos).collect();
    sorted.sort_unstable();
    let queries = sorted.len();
    QueryStats {
        query,
        queries,
        p50_ms: ms(percentile(&sorted, 50.0)),
        p95_ms: ms(percentile(&sorted, 95.0)),
        max_ms: ms(sorted.last().copied().unwrap_or_default()),
        mean_rows: returned as f64 / queries.max(1) as f64,
    }
}

/// The family's percentiles over every query's timing, and the worst kind's p95.
fn family(by_query: Vec<QueryStats>, all: &[Duration]) -> Family {
    let mut sorted: Vec<u64> = all.iter().map(nanos).collect();
    sorted.sort_unstable();
    Family {
        queries: sorted.len(),
        p50_ms: ms(percentile(&sorted, 50.0)),
        p95_ms: ms(percentile(&sorted, 95.0)),
        worst_p95_ms: by_query.iter().map(|q| q.p95_ms).fold(0.0, f64::max),
        by_query,
    }
}
