//! The gateway section's lines in the report and its targets, judged from [`GatewayBench`].

use crate::gateway_bench::{
    CLIENTS, GatewayBench, MAX_STDIO_ADDED_P50_US, MIN_CONCURRENT_PER_SEC, WINDOW,
};
use crate::verdict::{Target, unjudged};

impl GatewayBench {
    /// The section's lines for the table.
    pub fn lines(&self, out: &mut String) {
        out.push_str(&format!(
            "{:<36} {:>8} {:>8} {:>8} {:>12} {:>12}\n",
            "path", "p50 µs", "p99 µs", "calls/s", "client CPU", "proxy CPU"
        ));
        for leg in [
            &self.direct,
            &self.relay,
            &self.stdio,
            &self.http,
            &self.supergateway,
        ] {
            let s = &leg.summary;
            let cpu = |c: Option<f64>| c.map_or("-".to_owned(), |c| format!("{c:.1} µs"));
            out.push_str(&format!(
                "{:<36} {:>8.1} {:>8.1} {:>8.0} {:>12} {:>12}\n",
                leg.label,
                s.p50_us,
                s.p99_us,
                s.calls_per_sec,
                cpu(s.cpu_us_per_call),
                cpu(leg.proxy_cpu_us_per_call)
            ));
        }
        out.push_str(&format!(
            "{CLIENTS} clients × {WINDOW} in flight through gatehouse mcp: {:.0} calls/s ({} calls in {:.0} ms); {} calls audited\n",
            self.concurrent.calls_per_sec,
            self.concurrent.calls,
            self.concurrent.elapsed_ms,
            self.audited_calls
        ));
        match &self.all_running {
            Some(t) => out.push_str(&format!(
                "  while all {CLIENTS} ran: {:.0} calls/s ({} calls in {:.0} ms)\n",
                t.calls_per_sec, t.calls, t.elapsed_ms
            )),
            None => out.push_str(&format!(
                "  the {CLIENTS} clients never ran all at once: too few calls each\n"
            )),
        }
    }

    /// The section's targets.
    pub fn targets(gateway: Option<&GatewayBench>) -> Vec<Target> {
        let stdio = "p50 gatehouse mcp adds over the direct call (gated and audited)";
        let http = "Gatehouse's HTTP endpoint against supergateway, p50 and p99";
        let many = "calls/s through gatehouse mcp, 4 clients × 16 in flight, audited";
        let Some(g) = gateway else {
            let why = "the gateway section did not run";
            return vec![
                unjudged(stdio, why),
                unjudged(http, why),
                unjudged(many, why),
            ];
        };
        let added = g.stdio.summary.p50_us - g.direct.summary.p50_us;
        let (ours, theirs) = (&g.http.summary, &g.supergateway.summary);
        vec![
            Target {
                name: stdio,
                met: Some(added <= MAX_STDIO_ADDED_P50_US),
                detail: format!(
                    "{added:+.1} µs ({:.1} vs {:.1} µs; target ≤ {MAX_STDIO_ADDED_P50_US} µs); a plain relay process adds {:+.1} µs",
                    g.stdio.summary.p50_us,
                    g.direct.summary.p50_us,
                    g.relay.summary.p50_us - g.direct.summary.p50_us
                ),
            },
            Target {
                name: http,
                met: Some(ours.p50_us < theirs.p50_us && ours.p99_us < theirs.p99_us),
                detail: format!(
                    "p50 {:.1} vs {:.1} µs, p99 {:.1} vs {:.1} µs (target: both lower)",
                    ours.p50_us, theirs.p50_us, ours.p99_us, theirs.p99_us
                ),
            },
            match &g.all_running {
                Some(t) => Target {
                    name: many,
                    met: Some(t.calls_per_sec >= MIN_CONCURRENT_PER_SEC),
                    detail: format!(
                        "{:.0} calls/s while all {CLIENTS} ran ({:.0} from the first start to the last end; target ≥ {MIN_CONCURRENT_PER_SEC})",
                        t.calls_per_sec, g.concurrent.calls_per_sec
                    ),
                },
                None => unjudged(
                    many,
                    "the clients never ran all at once (too few calls each for their staggered starts)",
                ),
            },
        ]
    }
}
