//! tt-metal's mesh coordinates: `MeshShape` (rows × columns), `MeshCoordinate`, and the inclusive
//! `MeshCoordinateRange`, iterated row-major.

use std::fmt;

/// A 2-D mesh shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MeshShape {
    /// Rows.
    pub rows: u32,
    /// Columns.
    pub cols: u32,
}

impl MeshShape {
    /// `rows × cols`.
    pub fn new(rows: u32, cols: u32) -> MeshShape {
        MeshShape { rows, cols }
    }

    /// Number of devices (computed in 64 bits: a shape read from user input may be 2^32 − 1 on a side).
    pub fn mesh_size(&self) -> usize {
        (self.rows as u64 * self.cols as u64) as usize
    }

    /// The coordinate at row-major index `i`.
    pub fn coord(&self, i: usize) -> MeshCoordinate {
        MeshCoordinate::new(i as u32 / self.cols, i as u32 % self.cols)
    }

    /// Whether `c` lies inside.
    pub fn contains(&self, c: MeshCoordinate) -> bool {
        c.row < self.rows && c.col < self.cols
    }
}

impl fmt::Display for MeshShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

/// A device's place in a mesh.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MeshCoordinate {
    /// Row.
    pub row: u32,
    /// Column.
    pub col: u32,
}

impl MeshCoordinate {
    /// `(row, col)`.
    pub fn new(row: u32, col: u32) -> MeshCoordinate {
        MeshCoordinate { row, col }
    }

    /// Row-major index in `shape`.
    pub fn to_linear_index(&self, shape: MeshShape) -> usize {
        (self.row * shape.cols + self.col) as usize
    }
}

impl fmt::Display for MeshCoordinate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.row, self.col)
    }
}

/// An inclusive rectangle of mesh coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeshCoordinateRange {
    /// First corner.
    pub start: MeshCoordinate,
    /// Last corner (inclusive).
    pub end: MeshCoordinate,
}

impl MeshCoordinateRange {
    /// `start ..= end`.
    pub fn new(start: MeshCoordinate, end: MeshCoordinate) -> MeshCoordinateRange {
        MeshCoordinateRange { start, end }
    }

    /// The whole mesh.
    pub fn all(shape: MeshShape) -> MeshCoordinateRange {
        MeshCoordinateRange::new(MeshCoordinate::new(0, 0), MeshCoordinate::new(shape.rows - 1, shape.cols - 1))
    }

    /// One device.
    pub fn single(c: MeshCoordinate) -> MeshCoordinateRange {
        MeshCoordinateRange::new(c, c)
    }

    /// Whether `c` lies inside.
    pub fn contains(&self, c: MeshCoordinate) -> bool {
        (self.start.row..=self.end.row).contains(&c.row) && (self.start.col..=self.end.col).contains(&c.col)
    }

    /// The coordinates, row-major.
    pub fn iter(&self) -> impl Iterator<Item = MeshCoordinate> + '_ {
        (self.start.row..=self.end.row)
            .flat_map(move |r| (self.start.col..=self.end.col).map(move |c| MeshCoordinate::new(r, c)))
    }
}

impl fmt::Display for MeshCoordinateRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..={}", self.start, self.end)
    }
}
