//! allocator: tt-metal's memory allocator model (seed 001). One [`BankManager`] per memory kind allocates
//! in lock step across its banks with a first-fit [`FreeList`] (DRAM bottom-up, L1 top-down); the
//! [`Allocator`] holds both and writes the three memory reports.

pub mod allocator;
pub mod bank;
pub mod free_list;
pub mod report;

pub use allocator::{AllocError, Allocator, AllocatorConfig, BufferKind};
pub use bank::BankManager;
pub use free_list::{Block, Direction, FreeList};
