//! Kernel configurations, as `CreateKernel` takes them: data movement (RISC, NoC, NoC mode), compute
//! (math fidelity, DST width and sync, approximation, unpack-to-DST modes) and Ethernet (ERISC, sender or
//! receiver), with their compile-time args and defines, each checked where it is made.

use crate::error::DeviceError;
use sim_tensix::hw::compute::state::ComputeSettings;
use sim_tensix::{DataMovementProcessor, Risc};
use soc_descriptors::NocId;

/// tt-metal's `NOC_MODE`: whether a kernel owns its NoC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NocMode {
    /// `DM_DEDICATED_NOC`: the kernel uses its own NoC; the two data-movement kernels of a core must differ.
    #[default]
    Dedicated,
    /// `DM_DYNAMIC_NOC`: kernels pick the NoC per call and may share one.
    Dynamic,
}

/// tt-metal's `Eth` mode of an Ethernet kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EthMode {
    /// `Eth::SENDER` (the default).
    #[default]
    Sender,
    /// `Eth::RECEIVER`.
    Receiver,
    /// `Eth::IDLE`: an Ethernet core without a link (tensim runs it like an active one).
    Idle,
}

/// tt-metal's `EthernetConfig`: a kernel on the ERISC of Ethernet cores, given as logical Ethernet cores
/// `(0, channel)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EthernetConfig {
    /// Sender, receiver or idle.
    pub eth_mode: EthMode,
    /// The kernel's NoC.
    pub noc: NocId,
    /// `RISCV_0` (ERISC0), or `RISCV_1` (ERISC1, Blackhole only).
    pub processor: DataMovementProcessor,
    /// Compile-time args.
    pub compile_args: Vec<u32>,
    /// Defines.
    pub defines: Vec<(String, String)>,
    /// Named compile-time args.
    pub named_compile_args: Vec<(String, u32)>,
}

impl Default for EthernetConfig {
    fn default() -> Self {
        EthernetConfig {
            eth_mode: EthMode::Sender,
            noc: NocId::Noc0,
            processor: DataMovementProcessor::RISCV_0,
            compile_args: Vec::new(),
            defines: Vec::new(),
            named_compile_args: Vec::new(),
        }
    }
}

impl EthernetConfig {
    /// The ERISC it runs on.
    pub fn risc(&self) -> Risc {
        match self.processor {
            DataMovementProcessor::RISCV_0 => Risc::Erisc0,
            DataMovementProcessor::RISCV_1 => Risc::Erisc1,
        }
    }
}

impl From<EthernetConfig> for KernelConfig {
    fn from(c: EthernetConfig) -> Self {
        KernelConfig::Ethernet(c)
    }
}

/// tt-metal's `DataMovementConfig`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataMovementConfig {
    /// BRISC (RISCV_0) or NCRISC (RISCV_1).
    pub processor: DataMovementProcessor,
    /// The kernel's NoC (`noc_index`).
    pub noc: NocId,
    /// Dedicated or dynamic NoC use.
    pub noc_mode: NocMode,
    /// Compile-time args.
    pub compile_args: Vec<u32>,
    /// Defines.
    pub defines: Vec<(String, String)>,
    /// Named compile-time args.
    pub named_compile_args: Vec<(String, u32)>,
}

impl Default for DataMovementConfig {
    fn default() -> Self {
        DataMovementConfig {
            processor: DataMovementProcessor::RISCV_0,
            noc: NocId::Noc0,
            noc_mode: NocMode::Dedicated,
            compile_args: Vec::new(),
            defines: Vec::new(),
            named_compile_args: Vec::new(),
        }
    }
}

impl DataMovementConfig {
    /// `ReaderDataMovementConfig(compile_args)`: RISCV_1 on the preferred NoC for DRAM reads (NoC 0).
    pub fn reader(compile_args: Vec<u32>) -> Self {
        DataMovementConfig {
            processor: DataMovementProcessor::RISCV_1,
            noc: NocId::Noc0,
            compile_args,
            ..Default::default()
        }
    }

    /// `WriterDataMovementConfig(compile_args)`: RISCV_0 on the preferred NoC for DRAM writes (NoC 1).
    pub fn writer(compile_args: Vec<u32>) -> Self {
        DataMovementConfig {
            processor: DataMovementProcessor::RISCV_0,
            noc: NocId::Noc1,
            compile_args,
            ..Default::default()
        }
    }
}

/// `MathFidelity`: how many multiply phases the FPU uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum MathFidelity {
    /// One phase.
    LoFi,
    /// Two phases.
    HiFi2,
    /// Three phases.
    HiFi3,
    /// Four phases (full precision).
    #[default]
    HiFi4,
}

impl MathFidelity {
    /// Number of multiply phases.
    pub fn phases(self) -> u32 {
        match self {
            MathFidelity::LoFi => 1,
            MathFidelity::HiFi2 => 2,
            MathFidelity::HiFi3 => 3,
            MathFidelity::HiFi4 => 4,
        }
    }
}

/// How the unpacker brings a CB's tiles into DST for copies (`UnpackToDestMode`, one per CB index).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UnpackToDestMode {
    /// Through the source registers (19 bits of each value: Float32 keeps 10 mantissa bits).
    #[default]
    Default,
    /// Straight into 32-bit DST: Float32, Int32 and UInt32 data exactly. Needs `fp32_dest_acc_en`.
    UnpackToDestFp32,
}

/// tt-metal's `ComputeConfig`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ComputeConfig {
    /// Multiply phases.
    pub math_fidelity: MathFidelity,
    /// 32-bit DST accumulation.
    pub fp32_dest_acc_en: bool,
    /// DST used as one section instead of two halves.
    pub dst_full_sync_en: bool,
    /// SFPU approximate mode.
    pub math_approx_mode: bool,
    /// Per CB index, how copies unpack its tiles (missing entries: `Default`).
    pub unpack_to_dest_mode: Vec<UnpackToDestMode>,
    /// Compile-time args.
    pub compile_args: Vec<u32>,
    /// Defines.
    pub defines: Vec<(String, String)>,
    /// Named compile-time args.
    pub named_compile_args: Vec<(String, u32)>,
}

impl ComputeConfig {
    /// The settings the compute threads run with.
    pub fn settings(&self) -> ComputeSettings {
        ComputeSettings {
            fidelity_phases: self.math_fidelity.phases(),
            fp32_dest_acc: self.fp32_dest_acc_en,
            dst_full_sync: self.dst_full_sync_en,
            approx: self.math_approx_mode,
            unpack_to_dest_fp32: self
                .unpack_to_dest_mode
                .iter()
                .take(64)
                .enumerate()
                .filter(|(_, m)| **m == UnpackToDestMode::UnpackToDestFp32)
                .fold(0u64, |mask, (i, _)| mask | 1 << i),
        }
    }

    /// `unpack_to_dest_mode` checked: within the CB indices, and `UnpackToDestFp32` only with a 32-bit DST.
    pub(crate) fn check(&self, kernel: &str) -> Result<(), DeviceError> {
        let fp32_cbs: Vec<usize> = self
            .unpack_to_dest_mode
            .iter()
            .enumerate()
            .filter(|(_, m)| **m == UnpackToDestMode::UnpackToDestFp32)
            .map(|(i, _)| i)
            .collect();
        if let Some(i) = fp32_cbs.iter().find(|&&i| i >= 64) {
            return Err(DeviceError::api(format!(
                "CreateKernel `{kernel}`: unpack_to_dest_mode[{i}] names a CB index beyond 63"
            )));
        }
        if let Some(i) = fp32_cbs.first().filter(|_| !self.fp32_dest_acc_en) {
            return Err(DeviceError::api(format!(
                "CreateKernel `{kernel}`: unpack_to_dest_mode[{i}] is UnpackToDestFp32, which unpacks into a 32-bit \
                 DST: set fp32_dest_acc_en"
            )));
        }
        Ok(())
    }
}

/// A kernel configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KernelConfig {
    /// BRISC or NCRISC.
    DataMovement(DataMovementConfig),
    /// TRISC0–2.
    Compute(ComputeConfig),
    /// An ERISC of Ethernet cores.
    Ethernet(EthernetConfig),
}

impl KernelConfig {
    /// Whether the kernel runs on Ethernet cores.
    pub fn is_ethernet(&self) -> bool {
        matches!(self, KernelConfig::Ethernet(_))
    }
}

impl From<DataMovementConfig> for KernelConfig {
    fn from(c: DataMovementConfig) -> Self {
        KernelConfig::DataMovement(c)
    }
}

impl From<ComputeConfig> for KernelConfig {
    fn from(c: ComputeConfig) -> Self {
        KernelConfig::Compute(c)
    }
}
