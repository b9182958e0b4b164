//! programs: what users run on tensim, written in Rust against its host and kernel APIs — the tt-metal
//! programming examples (`examples`), TTNN's layout moves and matmul (`ops`), collectives on the fabric
//! (`mesh`), each with its CPU reference and check — plus deterministic test data (`rng`) and comparison
//! helpers (`golden`). The benchmark suites and trace replay built on them are the `suites` crate.

pub mod checks;
pub mod examples;
pub mod golden;
pub mod mesh;
pub mod ops;
pub mod options;
pub mod rng;

pub use examples::{CheckMode, Example, ExampleOptions, Outcome, Takes, Work, find, list};
pub use options::{OptionError, OptionProblem, PLAIN, ProgramError, Spelling};
