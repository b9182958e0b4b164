//! allocator: tt-metal's memory allocator model (seed 001). One [`BankManager`] per memory kind allocates
//! in lock step across its banks with a first-fit [`FreeList`] (DRAM bottom-up, L1 top-down); the
//! [`Allocator`] holds both and writes the three memory reports; [`CbRegion`] places a program's circular
//! buffers below the L1 buffers.

pub mod allocator;
pub mod bank;
pub mod cb_region;
pub mod free_list;
pub mod report;

pub use allocator::{AllocError, Allocator, AllocatorConfig, BufferKind};
pub use bank::BankManager;
pub use cb_region::{CbOverflow, CbRegion};
pub use free_list::{Block, Direction, FreeList};
