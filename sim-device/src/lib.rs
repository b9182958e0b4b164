//! sim-device: the simulated chip assembled from a SoC description and per-arch parameters, and the
//! TT-Metalium-style host API — devices, buffers, programs (kernels, circular buffers, semaphores, runtime
//! args), enqueue/read/write — returning output data and a [`RunReport`] of the run's timing.

pub mod buffer;
pub mod chip_spec;
/// Core coordinates and sets (owned by the `layout` crate).
pub use layout::core_ranges;
pub mod device;
pub mod error;
pub use sim_chip::fabric_config;
mod enqueue;
pub mod mesh;
pub mod router_check;
pub use sim_params as params;
pub mod kernel_config;
pub mod program;
pub use report;
pub mod tensor;

pub use buffer::{
    Buffer, BufferSharding, BufferType, HostData, InterleavedBufferConfig, ShardParameters, ShardedBufferConfig,
    from_bytes, tensor_accessor_args, tensor_accessor_args_with, to_bytes,
};
pub use chip_spec::{ChipSpec, SocSource, default_harvest};
pub use core_ranges::{CoreCoord, CoreRange, CoreRangeSet, WorkSplit, num_cores_to_corerangeset, split_work_to_cores};
pub use device::{
    AllocatorStatistics, BufferPlacement, Device, DeviceSetup, DispatchMode, MemoryReports, Progress, Recording,
};
pub use error::DeviceError;
pub use params::{
    DispatchParams, EthParams, FabricParams, MemLayout, ParamEntry, ParamError, ParamProblem, Params, ReplayParams,
    SimParams,
};
pub use program::{
    CbHandle, CircularBufferConfig, ComputeConfig, DataMovementConfig, EthMode, EthernetConfig, Kernel, KernelBody,
    KernelConfig, KernelHandle, MAX_RUNTIME_ARGS, MathFidelity, NocMode, Program, UnpackToDestMode,
};
pub use report::{
    DataRecord, DprintLine, DramUse, EthLinkUse, KernelRun, LinkUse, NocReport, PortUse, RouterCheck, RunReport,
    TransferKind, TransferRecord, ZoneRecord,
};
pub use sim_chip::{BlockedKernel, RunError};
pub use sim_core::{Cycle, Cycles};
pub use sim_tensix::{
    CBIndex, Compute, ComputeRole, DataFormat, DataMovementProcessor, Dataflow, Risc, SemaphoreCore, WordCond, bfloat16,
};
pub use soc_descriptors::{Arch, Noc0Coord, NocId, TileKind, TranslatedCoord};
pub use tensor::{DeviceTensor, Tensor};

/// Everything a tensim program needs, host side and kernel side, in one import.
pub mod prelude {
    pub use crate::buffer::{
        Buffer, BufferType, HostData, InterleavedBufferConfig, ShardParameters, ShardedBufferConfig,
        tensor_accessor_args,
    };
    pub use crate::chip_spec::{ChipSpec, SocSource};
    pub use crate::core_ranges::{
        CoreCoord, CoreRange, CoreRangeSet, WorkSplit, num_cores_to_corerangeset, split_work_to_cores,
    };
    pub use crate::device::{Device, DispatchMode};
    pub use crate::error::DeviceError;
    pub use crate::program::{
        CircularBufferConfig, ComputeConfig, DataMovementConfig, EthMode, EthernetConfig, Kernel, KernelHandle,
        MathFidelity, NocMode, Program, UnpackToDestMode,
    };
    pub use crate::report::RunReport;
    pub use crate::tensor::{DeviceTensor, Tensor};
    pub use layout::placement::{
        BufferDistributionSpec, DistributionStrategy, ShardOrientation, ShardSpecBuffer, TensorMemoryLayout,
    };
    pub use layout::tile::{tilize_nfaces, untilize_nfaces};
    pub use layout::ttnn::{
        BufferKind, DataType, MemoryConfig, NdShardSpec, PageConfig, ShardMode, ShardSpec, TensorSpec,
    };
    pub use layout::{Shape, TileShape};
    /// The SFPI vector types and intrinsics for custom SFPU functions.
    pub use sim_tensix::compute::sfpi::{self, Sfpi, VCond, VFloat, VInt, VUInt, VectorMode};
    pub use sim_tensix::{
        AddrGen, BroadcastType, CBIndex, Compute, ComputeRole, DataCopyType, DataFormat, DataMovementProcessor,
        Dataflow, EltwiseBinaryReuseDestType, EltwiseOp, InterleavedAddrGen, InterleavedAddrGenFast,
        InterleavedPow2AddrGenFast, PoolType, ReduceDim, Risc, SemaphoreCore, TensorAccessor, TensorAccessorArgs,
        WordCond, bfloat16, pack_tiles, pack_two_bfloat16_into_uint32, unpack_tiles,
    };
    pub use soc_descriptors::{Arch, NocId, TranslatedCoord};
}
