//! sim-tensix: one Tensix core — L1, circular buffers, semaphores, the five RISCs — and the kernel APIs
//! kernels are written against ([`Dataflow`] for BRISC/NCRISC, [`Compute`] for the TRISCs). The rest of
//! the chip is reached only through [`KernelHost`].

pub mod addrgen;
pub mod args;
mod cmd_buf;
pub mod compute;
pub mod dataflow;
pub mod hw;
/// Data formats and tile codecs (owned by the `layout` crate).
pub use layout::format;
pub mod kernel_ctx;
pub mod kernel_host;
pub mod params;
pub mod tile_slice;

pub use addrgen::{
    AddrGen, BankTables, InterleavedAddrGen, InterleavedAddrGenFast, InterleavedPow2AddrGenFast, TensorAccessor,
    TensorAccessorArgs,
};
pub use args::{
    ArgValue, ETH_SYNC_CHANNELS, EthInfo, KernelArgs, KernelInstance, PACKET_HEADER_SLOT_BYTES,
    PACKET_HEADERS_PER_RISC, RUNTIME_ARGS_SLOT_WORDS,
};
pub use compute::sfpi::{Sfpi, VCond, VFloat, VInt, VUInt, VectorMode};
pub use compute::{Compute, ComputeRole, DataCopyType, EltwiseBinaryReuseDestType};
pub use dataflow::{AtomicOpts, Dataflow, SemaphoreCore};
pub use format::{DataFormat, bfloat16, pack_tiles, pack_two_bfloat16_into_uint32, unpack_tiles};
pub use hw::cb::{CBIndex, CbCounters, CbId, CircularBuffer};
pub use hw::compute::math::{BroadcastType, EltwiseOp, PoolType, ReduceDim, ScalarOp, SfpuBinary, SfpuUnary};
pub use hw::compute::state::ComputeSettings;
pub use hw::core::{BY_HARDWARE, Barrier, NocCounters, TensixCore, Touched, Wait, Waiter, WordCond};
pub use hw::l1::{HostWindow, L1, L1OutOfRange};
pub use hw::risc::{DataMovementProcessor, Risc};
pub use kernel_host::{
    AtomicOp, AtomicReq, CMD_PENDING, CoreIdx, EthError, EthSend, KernelHost, McastReq, NOC_UNICAST_WRITE_VC, NocError,
    ReadReq, WriteReq,
};
pub use params::{ApiCosts, ComputeParams};
pub use tile_slice::{SlicePtr, SliceRange, SliceStyle};
