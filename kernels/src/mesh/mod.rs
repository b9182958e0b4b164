//! Programs over a mesh of chips.

pub mod matmul_dp;
