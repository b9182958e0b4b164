//! kernels: tensim's kernel library — the tt-metal programming examples rewritten in Rust against tensim's
//! API, each with its CPU reference and check — the layout ops (`ops`), data-movement benchmarks, trace
//! replay, plus deterministic test data and comparison helpers.

pub mod dm_bench;
pub mod examples;
pub mod gemm_bench;
pub mod golden;
pub mod mesh;
pub mod ops;
pub mod options;
pub mod replay;
pub mod rng;

pub use examples::{CheckMode, Example, ExampleOptions, Outcome, Takes, Work, find, list};
