//! benches: a small wall-clock measurement harness for tensim's speed benchmarks (no timed tests: speed is
//! measured here and reported, never asserted), and the regression suite of simulated cycles checked against
//! a baseline file.

pub mod harness;
pub mod regression;
pub mod workloads;

pub use harness::{Measurement, measure};
