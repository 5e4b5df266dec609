//! A calendar date as the vault writes it (`yyyy-mm-dd`), with the lenient
//! parser of spec/vault-format.md §5.5 and a UTC "today" that needs no
//! time-zone database.
//!
//! Days are counted from 1970-01-01 with Howard Hinnant's civil-from-days
//! algorithm, so [`Date::today_utc`] works wherever `SystemTime` does
//! (natively and in `wasm32-wasip2`). Vault operations never read the clock:
//! they take `today: Date` from their caller.

use std::fmt;
use std::str::FromStr;
use std::time::{SystemTime, UNIX_EPOCH};

/// A proleptic Gregorian calendar date between years 1 and 9999 (Python's
/// `datetime.date` range), ordered chronologically.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    year: u16,
    month: u8,
    day: u8,
}

/// Why a text is not a date.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "invalid date `{input}`: expected a calendar date in (or normalizable to) `yyyy-mm-dd` form"
)]
pub struct DateError {
    /// The text as given.
    pub input: String,
}

impl Date {
    /// The date `year-month-day`, or `None` when it is not a real calendar day.
    pub fn new(year: i64, month: u32, day: u32) -> Option<Date> {
        if !(1..=9999).contains(&year) || !(1..=12).contains(&month) {
            return None;
        }
        if day < 1 || day > days_in_month(year, month) {
            return None;
        }
        Some(Date {
            year: year as u16,
            month: month as u8,
            day: day as u8,
        })
    }

    /// The year (1..=9999).
    pub fn year(self) -> i64 {
        i64::from(self.year)
    }

    /// The month (1..=12).
    pub fn month(self) -> u32 {
        u32::from(self.month)
    }

    /// The day of the month (1..=31).
    pub fn day(self) -> u32 {
        u32::from(self.day)
    }

    /// Today's date in UTC, from the system clock. A clock before 1970 reads as
    /// 1970-01-01.
    pub fn today_utc() -> Date {
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        Date::from_days((secs / 86_400) as i64).unwrap_or(EPOCH)
    }

    /// The UTC date and the seconds into that day, from the system clock.
    pub fn now_utc() -> (Date, u32) {
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let day = Date::from_days((secs / 86_400) as i64).unwrap_or(EPOCH);
        (day, (secs % 86_400) as u32)
    }

    /// Days since 1970-01-01 (negative before it).
    pub fn to_days(self) -> i64 {
        days_from_civil(self.year(), self.month(), self.day())
    }

    /// The date `days` after 1970-01-01, or `None` outside years 1..=9999.
    pub fn from_days(days: i64) -> Option<Date> {
        let (y, m, d) = civil_from_days(days);
        Date::new(y, m, d)
    }

    /// The date `n` days later (earlier when negative), if still in range.
    pub fn add_days(self, n: i64) -> Option<Date> {
        Date::from_days(self.to_days() + n)
    }

    /// Strict parse of exactly `yyyy-mm-dd` (what `set-frontmatter --date` and
    /// the `date:` validator accept).
    pub fn parse_strict(s: &str) -> Result<Date, DateError> {
        parse_ymd_dashed(s).ok_or_else(|| err(s))
    }

    /// The lenient parser of spec §5.5: surrounding whitespace and quotes are
    /// dropped, then the first shape that claims the text decides (a claimed
    /// but impossible date is refused, not passed on):
    /// `yyyy-mm-dd`; whatever Python 3.13 `datetime.fromisoformat` accepts
    /// (zoned values converted to UTC); `yyyy/m/d`; `d-m-yyyy` or `m/d/yyyy`
    /// when exactly one of the first two numbers exceeds 12.
    pub fn parse_lenient(s: &str) -> Result<Date, DateError> {
        let t = s.trim().trim_matches(|c| c == '\'' || c == '"').trim();
        if is_ymd_dashed_shape(t) {
            return parse_ymd_dashed(t).ok_or_else(|| err(s));
        }
        if let Some(d) = parse_isoformat(t) {
            return Ok(d);
        }
        if let Some(d) = parse_slashed_ymd(t) {
            return d.ok_or_else(|| err(s));
        }
        if let Some(d) = parse_dmy_or_mdy(t) {
            return d.ok_or_else(|| err(s));
        }
        Err(err(s))
    }
}

const EPOCH: Date = Date {
    year: 1970,
    month: 1,
    day: 1,
};

fn err(s: &str) -> DateError {
    DateError {
        input: s.to_string(),
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

impl FromStr for Date {
    type Err = DateError;
    /// Strict `yyyy-mm-dd`.
    fn from_str(s: &str) -> Result<Date, DateError> {
        Date::parse_strict(s)
    }
}

impl serde::Serialize for Date {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(y) => 29,
        2 => 28,
        _ => 0,
    }
}

/// Howard Hinnant's `days_from_civil`.
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Howard Hinnant's `civil_from_days`.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn digits(s: &str) -> Option<i64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// The rest of `s` after a `yyyy-mm-dd-` prefix, as file and folder names
/// of the vault start (the date itself is not checked), if it has one.
pub fn after_date_prefix(s: &str) -> Option<&str> {
    let dated = s.get(..10).is_some_and(is_ymd_dashed_shape) && s.as_bytes().get(10) == Some(&b'-');
    dated.then(|| &s[11..])
}

/// Whether `s` has the shape `yyyy-mm-dd`: ASCII digits with dashes at 4
/// and 7 (the date itself is not checked).
pub fn is_ymd_dashed_shape(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
}

fn parse_ymd_dashed(s: &str) -> Option<Date> {
    if !is_ymd_dashed_shape(s) {
        return None;
    }
    Date::new(
        digits(&s[..4])?,
        digits(&s[5..7])? as u32,
        digits(&s[8..])? as u32,
    )
}

/// `^(\d{4})/(\d{1,2})/(\d{1,2})$`: `Some(None)` when claimed but impossible.
fn parse_slashed_ymd(s: &str) -> Option<Option<Date>> {
    let parts: Vec<&str> = s.split('/').collect();
    if parts.len() != 3
        || parts[0].len() != 4
        || !(1..=2).contains(&parts[1].len())
        || !(1..=2).contains(&parts[2].len())
    {
        return None;
    }
    let (y, m, d) = (digits(parts[0])?, digits(parts[1])?, digits(parts[2])?);
    Some(Date::new(y, m as u32, d as u32))
}

/// `^(\d{1,2})([-/])(\d{1,2})\2(\d{4})$` with the day/month disambiguation.
fn parse_dmy_or_mdy(s: &str) -> Option<Option<Date>> {
    let sep = if s.contains('-') { '-' } else { '/' };
    let parts: Vec<&str> = s.split(sep).collect();
    if parts.len() != 3
        || !(1..=2).contains(&parts[0].len())
        || !(1..=2).contains(&parts[1].len())
        || parts[2].len() != 4
    {
        return None;
    }
    let (a, b, y) = (digits(parts[0])?, digits(parts[1])?, digits(parts[2])?);
    Some(if a > 12 && b <= 12 {
        Date::new(y, b as u32, a as u32)
    } else if b > 12 && a <= 12 {
        Date::new(y, a as u32, b as u32)
    } else {
        None
    })
}

/// The subset of Python 3.13 `datetime.fromisoformat` the vault can meet:
/// an ISO date (extended, basic or week form), optionally followed by a
/// separator and a time with optional fraction and zone. Zoned values are
/// converted to UTC before the date is taken.
fn parse_isoformat(s: &str) -> Option<Date> {
    if !s.is_ascii() || s.len() < 7 {
        return None;
    }
    let (date, date_len) = parse_iso_date_part(s)?;
    let rest = &s[date_len..];
    if rest.is_empty() {
        return Some(date);
    }
    // Any single separator character followed by a time.
    let time = &rest[1..];
    let minutes_offset = parse_iso_time(time)?;
    match minutes_offset {
        None => Some(date),
        Some((time_minutes, offset_minutes)) => {
            let total = time_minutes - offset_minutes;
            let shift = total.div_euclid(24 * 60);
            date.add_days(shift)
        }
    }
}

/// Parses the date at the start of `s`, returning it with its length.
fn parse_iso_date_part(s: &str) -> Option<(Date, usize)> {
    let b = s.as_bytes();
    let year = digits(s.get(..4)?)?;
    let dashed = b.get(4) == Some(&b'-');
    let p = if dashed { 5 } else { 4 };
    if b.get(p) == Some(&b'W') {
        // Week date: YYYY-Www[-D] or YYYYWww[D].
        let week = digits(s.get(p + 1..p + 3)?)?;
        let mut len = p + 3;
        let mut weekday = 1;
        let has_day = if dashed {
            b.get(len) == Some(&b'-')
        } else {
            b.get(len).is_some_and(u8::is_ascii_digit)
        };
        if has_day {
            let at = if dashed { len + 1 } else { len };
            weekday = digits(s.get(at..at + 1)?)?;
            len = at + 1;
        }
        if !(1..=7).contains(&weekday) || !(1..=53).contains(&week) {
            return None;
        }
        // ISO week 1 holds January 4th.
        let jan4 = Date::new(year, 1, 4)?;
        let jan4_wd = (jan4.to_days() + 3).rem_euclid(7); // 0 = Monday
        let week1_monday = jan4.to_days() - jan4_wd;
        let d = Date::from_days(week1_monday + (week - 1) * 7 + (weekday - 1))?;
        if week == 53 {
            // Only valid when the year really has 53 weeks.
            let dec28 = Date::new(year, 12, 28)?;
            let last_week_monday = dec28.to_days() - (dec28.to_days() + 3).rem_euclid(7);
            if week1_monday + 52 * 7 > last_week_monday {
                return None;
            }
        }
        return Some((d, len));
    }
    if dashed {
        if b.get(7) != Some(&b'-') {
            return None;
        }
        let d = Date::new(
            year,
            digits(s.get(5..7)?)? as u32,
            digits(s.get(8..10)?)? as u32,
        )?;
        Some((d, 10))
    } else {
        let d = Date::new(
            year,
            digits(s.get(4..6)?)? as u32,
            digits(s.get(6..8)?)? as u32,
        )?;
        Some((d, 8))
    }
}

/// Parses `HH[:MM[:SS[.f+]]]` (or basic `HHMM[SS]`) with an optional zone.
/// Returns `Some(None)` for a naive time, `Some(Some((minutes, offset)))` for
/// a zoned one, `None` when the text is not a time.
fn parse_iso_time(t: &str) -> Option<Option<(i64, i64)>> {
    let zone_at = t.find(['Z', 'z', '+', '-']);
    let (clock, zone) = match zone_at {
        Some(i) => (&t[..i], Some(&t[i..])),
        None => (t, None),
    };
    let (h, m) = parse_clock(clock)?;
    let Some(zone) = zone else { return Some(None) };
    let offset = if zone.eq_ignore_ascii_case("z") {
        0
    } else {
        let sign = if zone.starts_with('-') { -1 } else { 1 };
        let (oh, om) = parse_clock(&zone[1..])?;
        sign * (oh * 60 + om)
    };
    Some(Some((h * 60 + m, offset)))
}

/// Hours and minutes of `HH`, `HH:MM`, `HH:MM:SS[.f]`, `HHMM`, `HHMMSS[.f]`.
fn parse_clock(c: &str) -> Option<(i64, i64)> {
    let (main, frac) = match c.find(['.', ',']) {
        Some(i) => (&c[..i], Some(&c[i + 1..])),
        None => (c, None),
    };
    if let Some(f) = frac {
        digits(f)?;
    }
    let fields: Vec<&str> = if main.contains(':') {
        main.split(':').collect()
    } else {
        if main.len() % 2 != 0 {
            return None;
        }
        (0..main.len())
            .step_by(2)
            .map(|i| &main[i..i + 2])
            .collect()
    };
    if fields.is_empty() || fields.len() > 3 || fields.iter().any(|f| f.len() != 2) {
        return None;
    }
    if frac.is_some() && fields.len() != 3 {
        return None;
    }
    let h = digits(fields[0])?;
    let m = fields.get(1).map_or(Some(0), |f| digits(f))?;
    let sec = fields.get(2).map_or(Some(0), |f| digits(f))?;
    if h > 23 || m > 59 || sec > 59 {
        return None;
    }
    Some((h, m))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lenient(s: &str) -> Option<String> {
        Date::parse_lenient(s).ok().map(|d| d.to_string())
    }

    #[test]
    fn days_round_trip_across_the_range() {
        for days in [-719_162, -1, 0, 1, 59, 10_957, 20_513, 2_932_896] {
            let d = Date::from_days(days).unwrap();
            assert_eq!(d.to_days(), days);
        }
        assert_eq!(Date::from_days(0).unwrap().to_string(), "1970-01-01");
        assert_eq!(Date::from_days(20_787).unwrap().to_string(), "2026-11-30");
    }

    #[test]
    fn lenient_dates_follow_the_spec_examples() {
        assert_eq!(lenient("2026-03-01").as_deref(), Some("2026-03-01"));
        assert_eq!(lenient(" '2026-03-01' ").as_deref(), Some("2026-03-01"));
        assert_eq!(lenient("2026-02-30"), None);
        assert_eq!(lenient("20260301").as_deref(), Some("2026-03-01"));
        assert_eq!(
            lenient("20260301T233000-0500").as_deref(),
            Some("2026-03-02")
        );
        assert_eq!(lenient("2026-W09-7").as_deref(), Some("2026-03-01"));
        assert_eq!(lenient("2026W097").as_deref(), Some("2026-03-01"));
        assert_eq!(lenient("2026-03-01T10").as_deref(), Some("2026-03-01"));
        assert_eq!(
            lenient("2026-03-01 10:00:00.5Z").as_deref(),
            Some("2026-03-01")
        );
        assert_eq!(
            lenient("2026-03-01T01:00+02:00").as_deref(),
            Some("2026-02-28")
        );
        assert_eq!(lenient("2026-060"), None);
        assert_eq!(lenient("2026-3-1"), None);
        assert_eq!(lenient("2026/3/4").as_deref(), Some("2026-03-04"));
        assert_eq!(lenient("2026/1/5").as_deref(), Some("2026-01-05"));
        assert_eq!(lenient("05-01-2026"), None);
        assert_eq!(lenient("13-01-2026").as_deref(), Some("2026-01-13"));
        assert_eq!(lenient("01/13/2026").as_deref(), Some("2026-01-13"));
        assert_eq!(lenient("1-13-2026").as_deref(), Some("2026-01-13"));
        assert_eq!(lenient("yesterday"), None);
    }

    #[test]
    fn strict_parse_refuses_anything_but_dashed_form() {
        assert!(Date::parse_strict("2026-01-04").is_ok());
        assert!(Date::parse_strict("2026/01/04").is_err());
        assert!(Date::parse_strict("2026-13-01").is_err());
    }

    #[test]
    fn today_is_a_plausible_date() {
        assert!(Date::today_utc().year() >= 2024);
    }
}
