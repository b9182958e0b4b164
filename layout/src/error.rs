//! `LayoutError`: what is wrong with a shape, grid, map, shard spec or core range, naming the value and what
//! would be accepted.

use std::fmt;

/// A layout that cannot be built or queried.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LayoutError {
    /// `name = value` is outside what is accepted.
    Value {
        /// What the value is (e.g. `grid[1]`, `shard height`).
        name: String,
        /// The value as given.
        value: String,
        /// What would be accepted.
        expected: String,
    },
    /// Two things that must agree do not (e.g. the map's inputs and the tensor's rank).
    Mismatch {
        /// What must agree.
        what: String,
        /// One side.
        left: String,
        /// The other side.
        right: String,
    },
    /// A text (affine map, shape, spec, core range) that does not parse.
    Parse {
        /// What was being read.
        what: &'static str,
        /// The text.
        text: String,
        /// Byte offset of the problem.
        at: usize,
        /// What was expected there.
        expected: String,
    },
    /// A rule of tt-metal's or TTNN's that the spec breaks.
    Illegal(String),
}

impl LayoutError {
    /// A value error.
    pub fn value(name: impl Into<String>, value: impl fmt::Display, expected: impl Into<String>) -> LayoutError {
        LayoutError::Value { name: name.into(), value: value.to_string(), expected: expected.into() }
    }

    /// A mismatch.
    pub fn mismatch(what: impl Into<String>, left: impl fmt::Display, right: impl fmt::Display) -> LayoutError {
        LayoutError::Mismatch { what: what.into(), left: left.to_string(), right: right.to_string() }
    }

    /// A parse error.
    pub fn parse(what: &'static str, text: &str, at: usize, expected: impl Into<String>) -> LayoutError {
        LayoutError::Parse { what, text: text.to_string(), at, expected: expected.into() }
    }
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutError::Value { name, value, expected } => write!(f, "{name} = {value}: {expected}"),
            LayoutError::Mismatch { what, left, right } => write!(f, "{what}: {left} vs {right}"),
            LayoutError::Parse { what, text, at, expected } => {
                let rest: String = text.get(*at..).unwrap_or("").chars().take(24).collect();
                if rest.is_empty() {
                    write!(f, "cannot read {what} `{text}`: expected {expected} at its end")
                } else {
                    write!(f, "cannot read {what} `{text}`: expected {expected} at `{rest}` (byte {at})")
                }
            }
            LayoutError::Illegal(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for LayoutError {}
