//! Simulated time: [`Cycle`] is an instant and [`Cycles`] a span, both counted in the chip's AICLK cycles.
//! Never bare integers, never floating point (µs appear only when printing).
//!
//! Arithmetic saturates instead of wrapping: a sum past `u64::MAX` (a kernel delaying by an absurd amount)
//! stays at the end of time, where the run's watchdog (`sim.max_cycles`, at most 2^50) reports it as a
//! run that never ends — never as a small, plausible number.

use std::fmt;
use std::ops::{Add, AddAssign, Mul, Sub, SubAssign};

/// An instant: AICLK cycles since the start of the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Cycle(pub u64);

/// A span of AICLK cycles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Cycles(pub u64);

impl Cycle {
    /// The start of the run.
    pub const ZERO: Cycle = Cycle(0);

    /// The span from `earlier` to `self`, zero if `earlier` is later.
    pub fn since(self, earlier: Cycle) -> Cycles {
        Cycles(self.0.saturating_sub(earlier.0))
    }
}

impl Cycles {
    /// No time.
    pub const ZERO: Cycles = Cycles(0);

    /// Microseconds at a clock of `clock_mhz` MHz (for printing only).
    pub fn as_micros(self, clock_mhz: u32) -> f64 {
        self.0 as f64 / clock_mhz as f64
    }
}

impl Add<Cycles> for Cycle {
    type Output = Cycle;
    fn add(self, d: Cycles) -> Cycle {
        Cycle(self.0.saturating_add(d.0))
    }
}

impl AddAssign<Cycles> for Cycle {
    fn add_assign(&mut self, d: Cycles) {
        self.0 = self.0.saturating_add(d.0);
    }
}

impl Sub<Cycle> for Cycle {
    type Output = Cycles;
    /// The span between two instants (zero if `rhs` is later; debug builds check it is not).
    fn sub(self, rhs: Cycle) -> Cycles {
        debug_assert!(self.0 >= rhs.0, "span from a later instant");
        Cycles(self.0.saturating_sub(rhs.0))
    }
}

impl Add for Cycles {
    type Output = Cycles;
    fn add(self, d: Cycles) -> Cycles {
        Cycles(self.0.saturating_add(d.0))
    }
}

impl AddAssign for Cycles {
    fn add_assign(&mut self, d: Cycles) {
        self.0 = self.0.saturating_add(d.0);
    }
}

impl Sub for Cycles {
    type Output = Cycles;
    fn sub(self, d: Cycles) -> Cycles {
        debug_assert!(self.0 >= d.0, "negative span");
        Cycles(self.0.saturating_sub(d.0))
    }
}

impl SubAssign for Cycles {
    fn sub_assign(&mut self, d: Cycles) {
        *self = *self - d;
    }
}

impl Mul<u64> for Cycles {
    type Output = Cycles;
    fn mul(self, n: u64) -> Cycles {
        Cycles(self.0.saturating_mul(n))
    }
}

impl std::iter::Sum for Cycles {
    fn sum<I: Iterator<Item = Cycles>>(iter: I) -> Cycles {
        iter.fold(Cycles::ZERO, |a, b| a + b)
    }
}

impl fmt::Display for Cycle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "@{}", self.0)
    }
}

impl fmt::Display for Cycles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} cycles", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instant_and_span_arithmetic() {
        let t = Cycle(100) + Cycles(20);
        assert_eq!(t, Cycle(120));
        assert_eq!(t - Cycle(100), Cycles(20));
        assert_eq!(Cycle(5).since(Cycle(9)), Cycles::ZERO);
        assert_eq!(Cycles(3) * 4, Cycles(12));
        assert_eq!([Cycles(1), Cycles(2)].into_iter().sum::<Cycles>(), Cycles(3));
        assert_eq!(Cycles(1500).as_micros(1000), 1.5);
        // Never wraps: time past the end of u64 stays at the end.
        assert_eq!(Cycle(u64::MAX - 1) + Cycles(5), Cycle(u64::MAX));
        assert_eq!(Cycles(u64::MAX) * 3, Cycles(u64::MAX));
    }
}
