//! allocator: tt-metal's memory allocator model — first-fit free lists with coalescing (this module), used
//! in lock step across DRAM and L1 banks.

pub mod free_list;

pub use free_list::{Block, Direction, FreeList};
