//! Coordinate systems as distinct types: logical worker, NoC0 physical, NoC1 physical and translated (virtual).
//!
//! - [`LogicalCoord`]: the 0-based grid of usable (unharvested) Tensix workers the host API speaks in.
//! - [`Noc0Coord`]: physical position on the NoC grid as written in SoC descriptors (`X-Y`), NoC0's view.
//! - [`Noc1Coord`]: the same tile as NoC1 numbers it (the mirror image on every shipped chip).
//! - [`TranslatedCoord`]: what kernels see and pass to `get_noc_addr` (Wormhole workers at logical + (18,18),
//!   Blackhole workers from (1,2); Grayskull has no translation, so it equals NoC0 physical).
//!
//! The types cannot be mixed up: converting between them goes through a `SocDescriptor` or `DeviceGrid`.

use serde::Serialize;
use std::fmt;

macro_rules! coord_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Default)]
        pub struct $name {
            /// Column.
            pub x: u32,
            /// Row.
            pub y: u32,
        }

        impl $name {
            /// A coordinate at column `x`, row `y`.
            pub const fn new(x: u32, y: u32) -> Self {
                $name { x, y }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "({}, {})", self.x, self.y)
            }
        }

        /// Ordered row-major: by `y`, then `x` (as tt-metal orders `CoreCoord`).
        impl Ord for $name {
            fn cmp(&self, other: &Self) -> std::cmp::Ordering {
                (self.y, self.x).cmp(&(other.y, other.x))
            }
        }

        impl PartialOrd for $name {
            fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
                Some(self.cmp(other))
            }
        }
    };
}

/// Logical worker coordinate: 0-based over the usable Tensix grid after harvesting (tt-metal `CoreCoord`,
/// owned by the `layout` crate, which places tensors over cores).
pub use layout::CoreCoord as LogicalCoord;
coord_type!(
    /// Physical NoC0 coordinate (the `X-Y` strings of SoC descriptors).
    Noc0Coord
);
coord_type!(
    /// Physical NoC1 coordinate (NoC1 numbers tiles from the opposite corner).
    Noc1Coord
);
coord_type!(
    /// Translated ("virtual") coordinate, as kernels see them in `get_noc_addr`.
    TranslatedCoord
);

/// Width and height of a grid, in tiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct GridSize {
    /// Number of columns.
    pub x: u32,
    /// Number of rows.
    pub y: u32,
}

impl GridSize {
    /// A grid of `x` columns and `y` rows.
    pub const fn new(x: u32, y: u32) -> Self {
        GridSize { x, y }
    }

    /// Number of tiles.
    pub fn count(self) -> usize {
        self.x as usize * self.y as usize
    }
}

impl fmt::Display for GridSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.x, self.y)
    }
}

/// One of the two NoCs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum NocId {
    /// NoC0: routes east then south.
    Noc0 = 0,
    /// NoC1: routes north then west.
    Noc1 = 1,
}

impl NocId {
    /// Both NoCs.
    pub const BOTH: [NocId; 2] = [NocId::Noc0, NocId::Noc1];

    /// The NoC with index 0 or 1.
    pub fn from_index(i: u32) -> Option<NocId> {
        match i {
            0 => Some(NocId::Noc0),
            1 => Some(NocId::Noc1),
            _ => None,
        }
    }

    /// 0 or 1.
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for NocId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "NOC_{}", self.index())
    }
}

/// A possibly negative logical coordinate from a core descriptor (`[x, y]`, negatives count from the end of
/// the functional grid: `-1` is the last row or column).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct RelativeCoord {
    /// Column (negative: from the right).
    pub x: i32,
    /// Row (negative: from the bottom).
    pub y: i32,
}

impl RelativeCoord {
    /// A relative coordinate.
    pub const fn new(x: i32, y: i32) -> Self {
        RelativeCoord { x, y }
    }

    /// Resolve against a logical grid of `size`; `None` when it falls outside.
    pub fn resolve(self, size: GridSize) -> Option<LogicalCoord> {
        let x = if self.x < 0 { size.x as i64 + self.x as i64 } else { self.x as i64 };
        let y = if self.y < 0 { size.y as i64 + self.y as i64 } else { self.y as i64 };
        if x < 0 || y < 0 || x >= size.x as i64 || y >= size.y as i64 {
            return None;
        }
        Some(LogicalCoord::new(x as u32, y as u32))
    }
}

impl fmt::Display for RelativeCoord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}, {}]", self.x, self.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_coords_count_from_the_end() {
        let g = GridSize::new(8, 9);
        assert_eq!(RelativeCoord::new(0, -1).resolve(g), Some(LogicalCoord::new(0, 8)));
        assert_eq!(RelativeCoord::new(-1, 3).resolve(g), Some(LogicalCoord::new(7, 3)));
        assert_eq!(RelativeCoord::new(8, 0).resolve(g), None);
        assert_eq!(RelativeCoord::new(0, -10).resolve(g), None);
    }

    #[test]
    fn coords_order_row_major() {
        let mut v = vec![Noc0Coord::new(2, 1), Noc0Coord::new(1, 2), Noc0Coord::new(1, 1)];
        v.sort();
        assert_eq!(v, vec![Noc0Coord::new(1, 1), Noc0Coord::new(2, 1), Noc0Coord::new(1, 2)]);
    }
}
