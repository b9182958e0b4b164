//! Core coordinates as the host API speaks them: `CoreCoord` (logical `(x, y)`), inclusive `CoreRange`
//! iterated row-major, non-overlapping `CoreRangeSet` (with the text form `(0,0)-(7,6),(0,7)-(3,7)`), and
//! tt-metal's helpers that order and split cores: `corerange_to_cores`, `num_cores_to_corerangeset`,
//! `split_work_to_cores`.

use crate::error::LayoutError;
use serde::Serialize;
use std::fmt;

/// tt-metal's `CoreCoord`: a logical worker coordinate, column `x` and row `y` (ordered by y, then x).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Default)]
pub struct CoreCoord {
    /// Column.
    pub x: u32,
    /// Row.
    pub y: u32,
}

impl CoreCoord {
    /// The core at column `x`, row `y`.
    pub const fn new(x: u32, y: u32) -> CoreCoord {
        CoreCoord { x, y }
    }
}

impl fmt::Display for CoreCoord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// Ordered row-major: by `y`, then `x` (as tt-metal orders `CoreCoord`).
impl Ord for CoreCoord {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.y, self.x).cmp(&(other.y, other.x))
    }
}

impl PartialOrd for CoreCoord {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// An inclusive rectangle of logical cores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CoreRange {
    /// Top-left corner.
    pub start: CoreCoord,
    /// Bottom-right corner (inclusive).
    pub end: CoreCoord,
}

impl CoreRange {
    /// The rectangle from `start` to `end` inclusive.
    pub fn new(start: CoreCoord, end: CoreCoord) -> CoreRange {
        CoreRange { start, end }
    }

    /// A single core.
    pub fn single(c: CoreCoord) -> CoreRange {
        CoreRange { start: c, end: c }
    }

    /// Whether `start` is not past `end`.
    pub fn is_valid(&self) -> bool {
        self.start.x <= self.end.x && self.start.y <= self.end.y
    }

    /// Number of cores.
    pub fn size(&self) -> usize {
        if !self.is_valid() {
            return 0;
        }
        ((self.end.x - self.start.x + 1) * (self.end.y - self.start.y + 1)) as usize
    }

    /// Columns × rows.
    pub fn grid_size(&self) -> CoreCoord {
        CoreCoord::new(self.end.x - self.start.x + 1, self.end.y - self.start.y + 1)
    }

    /// Whether `c` is inside.
    pub fn contains(&self, c: CoreCoord) -> bool {
        (self.start.x..=self.end.x).contains(&c.x) && (self.start.y..=self.end.y).contains(&c.y)
    }

    /// Whether the two rectangles share a core.
    pub fn intersects(&self, o: &CoreRange) -> bool {
        self.start.x <= o.end.x && o.start.x <= self.end.x && self.start.y <= o.end.y && o.start.y <= self.end.y
    }

    /// The cores, row-major (x fastest), as tt-metal iterates them.
    pub fn iter(&self) -> impl Iterator<Item = CoreCoord> + '_ {
        let (s, e) = (self.start, self.end);
        (s.y..=e.y).flat_map(move |y| (s.x..=e.x).map(move |x| CoreCoord::new(x, y)))
    }

    /// The cores column-major (y fastest).
    pub fn iter_col_major(&self) -> impl Iterator<Item = CoreCoord> + '_ {
        let (s, e) = (self.start, self.end);
        (s.x..=e.x).flat_map(move |x| (s.y..=e.y).map(move |y| CoreCoord::new(x, y)))
    }
}

impl fmt::Display for CoreRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})-({},{})", self.start.x, self.start.y, self.end.x, self.end.y)
    }
}

/// A set of non-overlapping core ranges.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct CoreRangeSet {
    ranges: Vec<CoreRange>,
}

impl CoreRangeSet {
    /// A set of ranges; they must be valid and must not overlap.
    pub fn new(ranges: Vec<CoreRange>) -> Result<CoreRangeSet, LayoutError> {
        for r in &ranges {
            if !r.is_valid() {
                return Err(LayoutError::Illegal(format!("core range {r} has its start past its end")));
            }
        }
        for (i, a) in ranges.iter().enumerate() {
            for b in &ranges[i + 1..] {
                if a.intersects(b) {
                    return Err(LayoutError::Illegal(format!(
                        "core ranges {a} and {b} overlap; a CoreRangeSet needs disjoint ranges"
                    )));
                }
            }
        }
        Ok(CoreRangeSet { ranges })
    }

    /// The empty set.
    pub fn empty() -> CoreRangeSet {
        CoreRangeSet::default()
    }

    /// The ranges.
    pub fn ranges(&self) -> &[CoreRange] {
        &self.ranges
    }

    /// Number of cores.
    pub fn num_cores(&self) -> usize {
        self.ranges.iter().map(|r| r.size()).sum()
    }

    /// Whether `c` is in the set.
    pub fn contains(&self, c: CoreCoord) -> bool {
        self.ranges.iter().any(|r| r.contains(c))
    }

    /// Every core, range by range, each row-major.
    pub fn iter(&self) -> impl Iterator<Item = CoreCoord> + '_ {
        self.ranges.iter().flat_map(|r| r.iter())
    }

    /// The smallest rectangle holding every core.
    pub fn bounding_box(&self) -> Option<CoreRange> {
        let mut it = self.ranges.iter();
        let first = *it.next()?;
        Some(it.fold(first, |acc, r| {
            CoreRange::new(
                CoreCoord::new(acc.start.x.min(r.start.x), acc.start.y.min(r.start.y)),
                CoreCoord::new(acc.end.x.max(r.end.x), acc.end.y.max(r.end.y)),
            )
        }))
    }
}

impl fmt::Display for CoreRangeSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, r) in self.ranges.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            if r.start == r.end {
                write!(f, "({},{})", r.start.x, r.start.y)?;
            } else {
                write!(f, "{r}")?;
            }
        }
        Ok(())
    }
}

impl std::str::FromStr for CoreRangeSet {
    type Err = LayoutError;

    /// `(x,y)` or `(x0,y0)-(x1,y1)`, comma-separated: `(0,0)-(7,6),(0,7)-(3,7)`.
    fn from_str(text: &str) -> Result<CoreRangeSet, LayoutError> {
        let mut p = Cursor { text, at: 0 };
        let mut ranges = Vec::new();
        loop {
            let a = p.coord()?;
            let b = if p.eat('-') { p.coord()? } else { a };
            ranges.push(CoreRange::new(a, b));
            if !p.eat(',') {
                break;
            }
        }
        p.skip_ws();
        if p.at != text.len() {
            return Err(LayoutError::parse("core ranges", text, p.at, "`,` and another `(x,y)` or `(x,y)-(x,y)`"));
        }
        if ranges.is_empty() {
            return Err(LayoutError::parse("core ranges", text, 0, "`(x,y)` or `(x,y)-(x,y)`"));
        }
        if let Some(r) =
            ranges.iter().find(|r| r.start.x.max(r.end.x) > MAX_CORE_COORD || r.start.y.max(r.end.y) > MAX_CORE_COORD)
        {
            return Err(LayoutError::Illegal(format!(
                "core range {r} reaches past any grid tensim models (coordinates up to {MAX_CORE_COORD}, which holds every chip's worker grid and every device view over a system's chips)"
            )));
        }
        CoreRangeSet::new(ranges)
    }
}

/// The largest core coordinate in core-range text: a Blackhole's worker grid is 14 wide and a device view
/// over a 32-chip galaxy 64; this bound keeps a typo from asking for billions of cores.
pub const MAX_CORE_COORD: u32 = 1023;

/// A tiny reader for core-range text.
struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

impl Cursor<'_> {
    fn skip_ws(&mut self) {
        while self.text[self.at..].starts_with(' ') {
            self.at += 1;
        }
    }

    fn eat(&mut self, c: char) -> bool {
        self.skip_ws();
        if self.text[self.at..].starts_with(c) {
            self.at += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn number(&mut self) -> Result<u32, LayoutError> {
        self.skip_ws();
        let digits = self.text[self.at..].bytes().take_while(|b| b.is_ascii_digit()).count();
        let s = &self.text[self.at..self.at + digits];
        let v = s.parse::<u32>().map_err(|_| LayoutError::parse("core ranges", self.text, self.at, "a core index"))?;
        self.at += digits;
        Ok(v)
    }

    fn coord(&mut self) -> Result<CoreCoord, LayoutError> {
        if !self.eat('(') {
            return Err(LayoutError::parse("core ranges", self.text, self.at, "`(`"));
        }
        let x = self.number()?;
        if !self.eat(',') {
            return Err(LayoutError::parse("core ranges", self.text, self.at, "`,` between x and y"));
        }
        let y = self.number()?;
        if !self.eat(')') {
            return Err(LayoutError::parse("core ranges", self.text, self.at, "`)`"));
        }
        Ok(CoreCoord::new(x, y))
    }
}

/// `corerange_to_cores(crs, max_cores, row_wise)`: every core of the set, range by range in the set's order,
/// each range row by row (`row_wise`, x fastest) or column by column (y fastest); at most `max_cores`.
pub fn corerange_to_cores(crs: &CoreRangeSet, max_cores: Option<usize>, row_wise: bool) -> Vec<CoreCoord> {
    let mut out = Vec::with_capacity(crs.num_cores());
    for r in crs.ranges() {
        if row_wise {
            out.extend(r.iter());
        } else {
            out.extend(r.iter_col_major());
        }
    }
    if let Some(m) = max_cores {
        out.truncate(m);
    }
    out
}

impl From<CoreCoord> for CoreRangeSet {
    fn from(c: CoreCoord) -> Self {
        CoreRangeSet { ranges: vec![CoreRange::single(c)] }
    }
}

impl From<CoreRange> for CoreRangeSet {
    fn from(r: CoreRange) -> Self {
        CoreRangeSet { ranges: vec![r] }
    }
}

impl From<&CoreRangeSet> for CoreRangeSet {
    fn from(r: &CoreRangeSet) -> Self {
        r.clone()
    }
}

/// `num_cores_to_corerangeset(n, grid, row_wise)`: the first `n` cores of `grid`, filled row by row
/// (`row_wise`) or column by column.
pub fn num_cores_to_corerangeset(n: u32, grid: CoreCoord, row_wise: bool) -> Result<CoreRangeSet, LayoutError> {
    num_cores_to_corerangeset_from(0, n, grid, row_wise)
}

/// The cores `first .. first + n` of `grid` in row-wise or column-wise order, as ranges.
fn num_cores_to_corerangeset_from(
    first: u32,
    n: u32,
    grid: CoreCoord,
    row_wise: bool,
) -> Result<CoreRangeSet, LayoutError> {
    let total = grid.x * grid.y;
    if first + n > total {
        return Err(LayoutError::Illegal(format!("{} cores do not fit in a {}x{} grid", first + n, grid.x, grid.y)));
    }
    let major = if row_wise { grid.x } else { grid.y };
    let at = |i: u32| {
        if row_wise { CoreCoord::new(i % major, i / major) } else { CoreCoord::new(i / major, i % major) }
    };
    let mut ranges = Vec::new();
    let mut i = first;
    let end = first + n;
    while i < end {
        let line_start = i - i % major;
        let line_end = line_start + major;
        if i == line_start && end >= line_end {
            // As many whole lines as possible in one rectangle.
            let lines = (end - i) / major;
            let last = i + lines * major - 1;
            ranges.push(CoreRange::new(at(i), at(last)));
            i += lines * major;
        } else {
            let stop = end.min(line_end);
            ranges.push(CoreRange::new(at(i), at(stop - 1)));
            i = stop;
        }
    }
    CoreRangeSet::new(ranges)
}

/// The result of [`split_work_to_cores`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkSplit {
    /// Number of cores used.
    pub num_cores: u32,
    /// Every core used.
    pub all_cores: CoreRangeSet,
    /// Cores doing `units_per_core_group_1` units.
    pub core_group_1: CoreRangeSet,
    /// Cores doing `units_per_core_group_2` units.
    pub core_group_2: CoreRangeSet,
    /// Units per core of group 1 (the larger share).
    pub units_per_core_group_1: u32,
    /// Units per core of group 2.
    pub units_per_core_group_2: u32,
}

/// `split_work_to_cores(grid, units, row_wise)`: spread `units` over the cores of `grid` as evenly as
/// possible; group 1 takes one more unit per core than group 2 when the split is uneven.
pub fn split_work_to_cores(grid: CoreCoord, units: u32, row_wise: bool) -> Result<WorkSplit, LayoutError> {
    let max = grid.x * grid.y;
    let n = units.min(max);
    if n == 0 {
        return Ok(WorkSplit {
            num_cores: 0,
            all_cores: CoreRangeSet::empty(),
            core_group_1: CoreRangeSet::empty(),
            core_group_2: CoreRangeSet::empty(),
            units_per_core_group_1: 0,
            units_per_core_group_2: 0,
        });
    }
    let all = num_cores_to_corerangeset(n, grid, row_wise)?;
    let rem = units % n;
    if rem == 0 {
        return Ok(WorkSplit {
            num_cores: n,
            all_cores: all.clone(),
            core_group_1: all,
            core_group_2: CoreRangeSet::empty(),
            units_per_core_group_1: units / n,
            units_per_core_group_2: 0,
        });
    }
    Ok(WorkSplit {
        num_cores: n,
        all_cores: all,
        core_group_1: num_cores_to_corerangeset_from(0, rem, grid, row_wise)?,
        core_group_2: num_cores_to_corerangeset_from(rem, n - rem, grid, row_wise)?,
        units_per_core_group_1: units / n + 1,
        units_per_core_group_2: units / n,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_iterate_row_major() {
        let r = CoreRange::new(CoreCoord::new(1, 0), CoreCoord::new(2, 1));
        let v: Vec<_> = r.iter().map(|c| (c.x, c.y)).collect();
        assert_eq!(v, vec![(1, 0), (2, 0), (1, 1), (2, 1)]);
        assert_eq!(r.size(), 4);
        assert!(CoreRangeSet::new(vec![r, CoreRange::single(CoreCoord::new(2, 1))]).is_err());
    }

    #[test]
    fn core_range_text_round_trips() {
        let s: CoreRangeSet = "(0,0)-(7,6),(0,7)-(3,7)".parse().unwrap();
        assert_eq!(s.num_cores(), 60);
        assert_eq!(s.to_string(), "(0,0)-(7,6),(0,7)-(3,7)");
        let one: CoreRangeSet = " (2, 3) ".parse().unwrap();
        assert_eq!(one.iter().collect::<Vec<_>>(), vec![CoreCoord::new(2, 3)]);
        for bad in ["", "(0,0", "(0,0)-", "(a,1)", "(0,0)-(1,1)x", "(3,0)-(1,1)", "(0,0)-(1,1),(1,1)"] {
            assert!(bad.parse::<CoreRangeSet>().is_err(), "{bad}");
        }
        let cores = corerange_to_cores(&"(0,0)-(1,1)".parse().unwrap(), None, false);
        assert_eq!(cores, vec![CoreCoord::new(0, 0), CoreCoord::new(0, 1), CoreCoord::new(1, 0), CoreCoord::new(1, 1)]);
    }

    #[test]
    fn split_work_matches_tt_metal() {
        let grid = CoreCoord::new(8, 8);
        let s = split_work_to_cores(grid, 640, true).unwrap();
        assert_eq!((s.num_cores, s.units_per_core_group_1, s.units_per_core_group_2), (64, 10, 0));
        assert_eq!(s.core_group_2.num_cores(), 0);
        let s = split_work_to_cores(grid, 100, true).unwrap();
        assert_eq!(s.num_cores, 64);
        assert_eq!((s.core_group_1.num_cores(), s.units_per_core_group_1), (36, 2));
        assert_eq!((s.core_group_2.num_cores(), s.units_per_core_group_2), (28, 1));
        // Row-wise: group 1 is rows 0..3 and 4 cores of row 4.
        assert_eq!(s.core_group_1.ranges()[0], CoreRange::new(CoreCoord::new(0, 0), CoreCoord::new(7, 3)));
        assert_eq!(s.core_group_1.ranges()[1], CoreRange::new(CoreCoord::new(0, 4), CoreCoord::new(3, 4)));
        // Column-wise fills columns first.
        let s = split_work_to_cores(grid, 10, false).unwrap();
        assert_eq!(s.all_cores.ranges()[0], CoreRange::new(CoreCoord::new(0, 0), CoreCoord::new(0, 7)));
        assert_eq!(s.all_cores.ranges()[1], CoreRange::new(CoreCoord::new(1, 0), CoreCoord::new(1, 1)));
    }
}
