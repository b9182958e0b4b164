//! benches: a small wall-clock measurement harness for tensim's speed benchmarks (no timed tests: speed is
//! measured here and reported, never asserted).

pub mod harness;
pub mod workloads;

pub use harness::{Measurement, measure};
