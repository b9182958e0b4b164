//! N-D shapes (`2x3x64x128`): volume, row-major strides, ravel/unravel of coordinates, ceil-division by
//! another shape, and the text form every CLI option and error message uses.

use crate::error::LayoutError;
use serde::Serialize;
use std::fmt;

/// The most elements a tensor given to the layout tools may have: 2^40 (two terabytes of bf16, more memory
/// than any system tensim models). Page and shard arithmetic on such shapes stays within 64 bits.
pub const MAX_TENSOR_ELEMENTS: u64 = 1 << 40;

/// An N-D shape; every extent is a whole number (zero extents are representable, and rejected where a
/// layout needs non-empty data).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Default)]
#[serde(transparent)]
pub struct Shape(pub Vec<u64>);

impl Shape {
    /// A shape from its extents.
    pub fn new(dims: impl Into<Vec<u64>>) -> Shape {
        Shape(dims.into())
    }

    /// Number of dimensions.
    pub fn rank(&self) -> usize {
        self.0.len()
    }

    /// The extents.
    pub fn dims(&self) -> &[u64] {
        &self.0
    }

    /// Extent of dimension `i`, counting from the end when negative (`-1` is the last).
    pub fn dim(&self, i: isize) -> u64 {
        let r = self.rank() as isize;
        let k = if i < 0 { r + i } else { i };
        self.0[k as usize]
    }

    /// Number of elements (saturating at `u64::MAX`).
    pub fn volume(&self) -> u64 {
        self.0.iter().fold(1u64, |a, &d| a.saturating_mul(d))
    }

    /// Row-major strides (the last dimension has stride 1).
    pub fn strides(&self) -> Vec<u64> {
        let mut s = vec![1u64; self.rank()];
        for i in (0..self.rank().saturating_sub(1)).rev() {
            s[i] = s[i + 1].saturating_mul(self.0[i + 1]);
        }
        s
    }

    /// Row-major index of `coord` (which must be inside the shape).
    pub fn ravel(&self, coord: &[u64]) -> u64 {
        debug_assert_eq!(coord.len(), self.rank());
        coord.iter().zip(&self.0).fold(0u64, |a, (&c, &d)| a * d + c)
    }

    /// The coordinate of row-major index `index` (which must be below the volume).
    pub fn unravel(&self, mut index: u64, out: &mut [u64]) {
        for (o, &d) in out.iter_mut().zip(&self.0).rev() {
            *o = index % d.max(1);
            index /= d.max(1);
        }
    }

    /// Whether every coordinate of `coord` is inside the shape.
    pub fn contains(&self, coord: &[u64]) -> bool {
        coord.len() == self.rank() && coord.iter().zip(&self.0).all(|(c, d)| c < d)
    }

    /// Extent-wise `ceil(self / other)` (same rank; `other` has no zero extent).
    pub fn ceil_div(&self, other: &Shape) -> Shape {
        Shape(self.0.iter().zip(&other.0).map(|(a, b)| a.div_ceil((*b).max(1))).collect())
    }

    /// Extent-wise product (same rank).
    pub fn mul(&self, other: &Shape) -> Shape {
        Shape(self.0.iter().zip(&other.0).map(|(a, b)| a.saturating_mul(*b)).collect())
    }

    /// Check that a TTNN tensor shape is one tensim can work out: every extent fits TTNN's 32-bit
    /// dimensions and the volume is at most [`MAX_TENSOR_ELEMENTS`], so that the page and shard arithmetic
    /// derived from it stays within 64 bits. `what` names the shape in the error.
    pub fn check_tensor_size(&self, what: &str) -> Result<(), LayoutError> {
        if let Some((i, &d)) = self.0.iter().enumerate().find(|(_, d)| u32::try_from(**d).is_err()) {
            return Err(LayoutError::value(
                format!("{what}[{i}]"),
                d,
                format!("at most {} (TTNN's dimensions are 32-bit)", u32::MAX),
            ));
        }
        let volume = self.0.iter().fold(1u128, |a, &d| a.saturating_mul(u128::from(d)));
        if volume > u128::from(MAX_TENSOR_ELEMENTS) {
            return Err(LayoutError::value(
                what,
                format!("{self} ({volume} elements)"),
                format!("at most {MAX_TENSOR_ELEMENTS} elements (2^40, beyond the memory of any system tensim models)"),
            ));
        }
        Ok(())
    }

    /// Check that no extent is zero; `what` names the shape in the error.
    pub fn check_nonzero(&self, what: &str) -> Result<(), LayoutError> {
        if self.rank() == 0 {
            return Err(LayoutError::value(what, "[]", "at least one dimension"));
        }
        match self.0.iter().position(|&d| d == 0) {
            Some(i) => Err(LayoutError::value(format!("{what}[{i}]"), 0, "every extent must be at least 1")),
            None => Ok(()),
        }
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("x")?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Shape {
    type Err = LayoutError;

    /// `2x3x64x128` (also `2,3,64,128`); `scalar` (or nothing) is the rank-0 shape.
    fn from_str(text: &str) -> Result<Shape, LayoutError> {
        let t = text.trim();
        if t.is_empty() || t == "scalar" {
            return Ok(Shape(Vec::new()));
        }
        let mut dims = Vec::new();
        let mut at = 0;
        for part in t.split(['x', 'X', ',']) {
            let p = part.trim();
            match p.parse::<u64>() {
                Ok(v) => dims.push(v),
                Err(_) => return Err(LayoutError::parse("shape", text, at, "a whole number")),
            }
            at += part.len() + 1;
        }
        Ok(Shape(dims))
    }
}

impl From<Vec<u64>> for Shape {
    fn from(v: Vec<u64>) -> Shape {
        Shape(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ravel_unravel_strides() {
        let s: Shape = "2x3x4".parse().unwrap();
        assert_eq!(s.strides(), vec![12, 4, 1]);
        assert_eq!(s.ravel(&[1, 2, 3]), 23);
        let mut c = [0; 3];
        s.unravel(23, &mut c);
        assert_eq!(c, [1, 2, 3]);
        assert_eq!(s.volume(), 24);
        assert_eq!(s.to_string(), "2x3x4");
        assert_eq!(s.ceil_div(&Shape::new(vec![1, 2, 3])), Shape::new(vec![2, 2, 2]));
        assert!("2xx3".parse::<Shape>().is_err());
        assert_eq!(("".parse::<Shape>().unwrap().rank(), "scalar".parse::<Shape>().unwrap().volume()), (0, 1));
        assert!(Shape::new(vec![2, 0]).check_nonzero("shape").is_err());
    }

    #[test]
    fn tensor_sizes_stay_within_what_64_bit_page_arithmetic_holds() {
        assert!(Shape::new(vec![u64::from(u32::MAX), 256]).check_tensor_size("shape").is_ok());
        let wide = Shape::new(vec![1, u64::from(u32::MAX) + 1]).check_tensor_size("shape").unwrap_err();
        assert!(wide.to_string().contains("shape[1] = 4294967296"), "{wide}");
        assert!(Shape::new(vec![1 << 20, 1 << 20]).check_tensor_size("shape").is_ok(), "2^40 elements is the limit");
        let big = Shape::new(vec![1 << 20, (1 << 20) + 1]).check_tensor_size("shape").unwrap_err();
        assert!(big.to_string().contains("1099512676352 elements"), "{big}");
        // A volume whose 64-bit product would wrap is still seen as too large.
        assert!(Shape::new(vec![u64::from(u32::MAX); 4]).check_tensor_size("shape").is_err());
    }
}
