//! suites: tensim's measurement suites — tt-metal's data-movement benchmarks (`dm_bench`), the GEMM
//! benchmark (`gemm_bench`) and NoC trace replay (`replay`) — each with its comparison to a measured table.
//! They run programs from the `programs` crate and return typed rows; the command line words them.

pub mod dm_bench;
pub mod gemm_bench;
pub mod replay;
