//! The time now as RFC 3339 UTC, for the demo server's `current_time` tool (the standard
//! library has no calendar).

use std::time::{SystemTime, UNIX_EPOCH};

/// Now, such as `2026-11-28T02:30:00Z`.
pub fn now_utc() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    utc(secs)
}

/// `secs` after 1970 as RFC 3339 UTC (Howard Hinnant's `civil_from_days`).
fn utc(secs: u64) -> String {
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn seconds_read_as_utc_times() {
        assert_eq!(super::utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(super::utc(1_795_830_245), "2026-11-28T01:44:05Z");
        assert_eq!(super::utc(951_782_400), "2000-02-29T00:00:00Z");
    }
}
