//! Programs over a mesh of chips.

pub mod all_gather;
pub mod matmul_dp;
