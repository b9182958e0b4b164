//! Programs: kernels on core ranges, circular buffers, semaphores and runtime args, with tt-metal's checks
//! (one kernel per RISC, two data-movement kernels of a core on different NoCs, at most 341 runtime args,
//! CB page sizes dividing the CB size, CB and semaphore index limits).

use crate::error::DeviceError;
use layout::core_ranges::{CoreCoord, CoreRangeSet};
use sim_tensix::{CbId, Compute, DataFormat, Dataflow};
use std::collections::BTreeMap;
use std::sync::Arc;

/// `max_runtime_args`: unique plus common runtime args per core and kernel.
pub const MAX_RUNTIME_ARGS: usize = sim_tensix::RUNTIME_ARGS_SLOT_WORDS as usize;
/// Semaphores per core (`NUM_SEMAPHORES`).
pub const NUM_SEMAPHORES: u32 = 16;
/// The largest CB index any chip supports (Blackhole: 64); the device checks its own limit at launch.
pub const MAX_CB_INDEX: u32 = 64;

pub use crate::kernel_config::{
    ComputeConfig, DataMovementConfig, EthMode, EthernetConfig, KernelConfig, MathFidelity, NocMode, UnpackToDestMode,
};

pub use sim_chip::{ComputeFn, DataflowFn, KernelBody};

/// A named kernel, as `CreateKernel`'s file path names it.
#[derive(Clone)]
pub struct Kernel {
    /// The name (tt-metal's kernel path, or any label).
    pub name: String,
    /// The body.
    pub body: KernelBody,
}

impl Kernel {
    /// A data-movement kernel.
    pub fn dataflow(name: &str, f: impl for<'a, 'y> Fn(&'a mut Dataflow<'y>) + Send + Sync + 'static) -> Kernel {
        Kernel { name: name.to_string(), body: KernelBody::Dataflow(Arc::new(f)) }
    }

    /// A compute kernel.
    pub fn compute(name: &str, f: impl for<'a, 'y> Fn(&'a mut Compute<'y>) + Send + Sync + 'static) -> Kernel {
        Kernel { name: name.to_string(), body: KernelBody::Compute(Arc::new(f)) }
    }
}

/// Handle of a kernel in a program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KernelHandle(pub u32);

/// Handle of a circular-buffer configuration in a program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CbHandle(pub u32);

/// tt-metal's `CircularBufferConfig`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CircularBufferConfig {
    /// Total size, bytes.
    pub total_size: u32,
    /// Data format of each index.
    pub formats: Vec<(u32, DataFormat)>,
    /// Page size of each index.
    pub page_sizes: Vec<(u32, u32)>,
    /// An L1 buffer the CB aliases (`set_globally_allocated_address`): the CB lives at the buffer's address
    /// on each of its cores (a sharded buffer: the core's shard) instead of in the CB region.
    pub globally_allocated: Option<crate::buffer::Buffer>,
}

impl CircularBufferConfig {
    /// `CircularBufferConfig(total_size, {{index, format}, …})`.
    pub fn new(total_size: u32, formats: &[(impl CbId, DataFormat)]) -> Self {
        CircularBufferConfig {
            total_size,
            formats: formats.iter().map(|(i, f)| (i.cb_index(), *f)).collect(),
            page_sizes: Vec::new(),
            globally_allocated: None,
        }
    }

    /// `set_page_size(index, bytes)`.
    pub fn set_page_size(mut self, index: impl CbId, page_size: u32) -> Self {
        let i = index.cb_index();
        self.page_sizes.retain(|(j, _)| *j != i);
        self.page_sizes.push((i, page_size));
        self
    }

    /// The page size set for CB `index`, if any.
    pub fn page_size(&self, index: u32) -> Option<u32> {
        self.page_sizes.iter().find(|(j, _)| *j == index).map(|(_, p)| *p)
    }

    /// `set_globally_allocated_address(buffer)`: place the CB on an L1 buffer (typically the sharded buffer a
    /// kernel reads or writes in place) rather than in the program's CB region.
    pub fn set_globally_allocated_address(mut self, buffer: &crate::buffer::Buffer) -> Self {
        self.globally_allocated = Some(buffer.clone());
        self
    }

    /// `set_total_size(bytes)`.
    pub fn set_total_size(mut self, total_size: u32) -> Self {
        self.total_size = total_size;
        self
    }
}

#[derive(Clone)]
pub(crate) struct KernelDef {
    pub name: String,
    pub body: KernelBody,
    pub cores: CoreRangeSet,
    pub config: KernelConfig,
    pub runtime_args: BTreeMap<(u32, u32), Vec<u32>>,
    pub common_args: Vec<u32>,
}

impl KernelDef {
    /// The RISC slots this kernel occupies: 0 BRISC, 1 NCRISC, 2 compute.
    pub fn slot(&self) -> usize {
        match &self.config {
            KernelConfig::DataMovement(c) => c.processor.risc().index(),
            KernelConfig::Compute(_) => 2,
            KernelConfig::Ethernet(c) => c.risc().index(),
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) struct CbDef {
    pub cores: CoreRangeSet,
    pub config: CircularBufferConfig,
}

#[derive(Debug, Clone)]
pub(crate) struct SemDef {
    pub cores: CoreRangeSet,
    pub id: u32,
    pub initial: u32,
    /// On Ethernet cores (logical `(0, channel)`), not workers.
    pub on_eth: bool,
}

/// A program: what runs where.
#[derive(Clone, Default)]
pub struct Program {
    pub(crate) kernels: Vec<KernelDef>,
    pub(crate) cbs: Vec<CbDef>,
    pub(crate) semaphores: Vec<SemDef>,
}

fn slot_name(slot: usize) -> &'static str {
    ["RISCV_0 (BRISC)", "RISCV_1 (NCRISC)", "the compute RISCs", "", "", "ERISC0", "ERISC1"][slot]
}

impl Program {
    /// `CreateProgram()`.
    pub fn new() -> Program {
        Program::default()
    }

    /// `CreateKernel(program, name, cores, config)`.
    pub fn create_kernel(
        &mut self,
        kernel: Kernel,
        cores: impl Into<CoreRangeSet>,
        config: impl Into<KernelConfig>,
    ) -> Result<KernelHandle, DeviceError> {
        let cores = cores.into();
        let config = config.into();
        match (&kernel.body, &config) {
            (KernelBody::Dataflow(_), KernelConfig::DataMovement(_) | KernelConfig::Ethernet(_))
            | (KernelBody::Compute(_), KernelConfig::Compute(_)) => {}
            (KernelBody::Compute(_), KernelConfig::Ethernet(_)) => {
                return Err(DeviceError::api(format!(
                    "CreateKernel `{}`: a compute kernel cannot run on an Ethernet core (Ethernet cores have no Tensix engine)",
                    kernel.name
                )));
            }
            (KernelBody::Dataflow(_), KernelConfig::Compute(_)) => {
                return Err(DeviceError::api(format!(
                    "CreateKernel `{}`: a data-movement kernel body was given a ComputeConfig; use a DataMovementConfig",
                    kernel.name
                )));
            }
            (KernelBody::Compute(_), KernelConfig::DataMovement(_)) => {
                return Err(DeviceError::api(format!(
                    "CreateKernel `{}`: a compute kernel body was given a DataMovementConfig; use a ComputeConfig",
                    kernel.name
                )));
            }
        }
        if let KernelConfig::Compute(c) = &config {
            c.check(&kernel.name)?;
        }
        if cores.num_cores() == 0 {
            return Err(DeviceError::api(format!("CreateKernel `{}`: the core range is empty", kernel.name)));
        }
        let def = KernelDef {
            name: kernel.name,
            body: kernel.body,
            cores,
            config,
            runtime_args: BTreeMap::new(),
            common_args: Vec::new(),
        };
        for other in &self.kernels {
            if other.config.is_ethernet() != def.config.is_ethernet() {
                continue;
            }
            for c in def.cores.iter() {
                if !other.cores.contains(c) {
                    continue;
                }
                if other.slot() == def.slot() {
                    return Err(DeviceError::api(format!(
                        "CreateKernel `{}`: core ({},{}) already runs kernel `{}` on {}; each core runs one kernel per processor",
                        def.name,
                        c.x,
                        c.y,
                        other.name,
                        slot_name(def.slot())
                    )));
                }
                if let (KernelConfig::DataMovement(a), KernelConfig::DataMovement(b)) = (&other.config, &def.config) {
                    let dedicated = a.noc_mode == NocMode::Dedicated && b.noc_mode == NocMode::Dedicated;
                    if dedicated && a.noc == b.noc {
                        return Err(DeviceError::api(format!(
                            "Illegal NOC usage: data movement kernels `{}` ({:?}) and `{}` ({:?}) on core ({},{}) both use {}; \
                             give them different NoCs",
                            other.name, a.processor, def.name, b.processor, c.x, c.y, a.noc
                        )));
                    }
                }
            }
        }
        self.kernels.push(def);
        Ok(KernelHandle(self.kernels.len() as u32 - 1))
    }

    /// `CreateCircularBuffer(program, cores, config)`.
    pub fn create_circular_buffer(
        &mut self,
        cores: impl Into<CoreRangeSet>,
        config: CircularBufferConfig,
    ) -> Result<CbHandle, DeviceError> {
        let cores = cores.into();
        if config.formats.is_empty() {
            return Err(DeviceError::api("CreateCircularBuffer: the config lists no CB index"));
        }
        if config.total_size == 0 {
            return Err(DeviceError::api("CreateCircularBuffer: total size is 0"));
        }
        for (i, _) in &config.formats {
            if *i >= MAX_CB_INDEX {
                return Err(DeviceError::api(format!(
                    "CreateCircularBuffer: CB index {i} is out of range (0..{MAX_CB_INDEX})"
                )));
            }
            let page = config.page_sizes.iter().find(|(j, _)| j == i).map(|(_, p)| *p).ok_or_else(|| {
                DeviceError::api(format!(
                    "CreateCircularBuffer: no page size for CB {i}; call set_page_size({i}, bytes)"
                ))
            })?;
            if page == 0 || !config.total_size.is_multiple_of(page) {
                return Err(DeviceError::api(format!(
                    "CreateCircularBuffer: CB {i}: page size {page} does not divide the total size {} (a CB holds a whole number of pages)",
                    config.total_size
                )));
            }
            for other in &self.cbs {
                if other.config.formats.iter().any(|(j, _)| j == i)
                    && let Some(c) = cores.iter().find(|c| other.cores.contains(*c))
                {
                    return Err(DeviceError::api(format!(
                        "CreateCircularBuffer: CB {i} is already configured on core ({},{})",
                        c.x, c.y
                    )));
                }
            }
        }
        self.cbs.push(CbDef { cores, config });
        Ok(CbHandle(self.cbs.len() as u32 - 1))
    }

    /// A circular buffer's configuration, to change before the next run (`UpdateCircularBufferTotalSize`,
    /// `UpdateDynamicCircularBufferAddress`); the launch checks it again.
    pub fn circular_buffer_config_mut(&mut self, h: CbHandle) -> Result<&mut CircularBufferConfig, DeviceError> {
        let n = self.cbs.len();
        self.cbs
            .get_mut(h.0 as usize)
            .map(|c| &mut c.config)
            .ok_or_else(|| DeviceError::api(format!("circular buffer handle {} does not exist ({n} CBs)", h.0)))
    }

    /// `CreateSemaphore(program, cores, initial_value)`: the lowest id free on every core of the range.
    pub fn create_semaphore(&mut self, cores: impl Into<CoreRangeSet>, initial_value: u32) -> Result<u32, DeviceError> {
        self.add_semaphore(cores.into(), initial_value, false)
    }

    /// `CreateSemaphore(program, cores, initial_value, CoreType::ETH)`: a semaphore on Ethernet cores
    /// (logical `(0, channel)`, as Ethernet kernels are placed), at `eth.semaphore_base` in their L1; ids are
    /// counted apart from the workers'. Kernels find it with `get_semaphore_on(id, SemaphoreCore::Eth)`.
    pub fn create_eth_semaphore(
        &mut self,
        cores: impl Into<CoreRangeSet>,
        initial_value: u32,
    ) -> Result<u32, DeviceError> {
        self.add_semaphore(cores.into(), initial_value, true)
    }

    fn add_semaphore(&mut self, cores: CoreRangeSet, initial: u32, on_eth: bool) -> Result<u32, DeviceError> {
        let taken = |id: u32| {
            self.semaphores
                .iter()
                .any(|s| s.on_eth == on_eth && s.id == id && cores.iter().any(|c| s.cores.contains(c)))
        };
        let id = (0..NUM_SEMAPHORES).find(|&id| !taken(id)).ok_or_else(|| {
            let kind = if on_eth { "Ethernet cores" } else { "cores" };
            DeviceError::api(format!("CreateSemaphore: all {NUM_SEMAPHORES} semaphores are in use on these {kind}"))
        })?;
        self.semaphores.push(SemDef { cores, id, initial, on_eth });
        Ok(id)
    }

    fn kernel_mut(&mut self, k: KernelHandle) -> Result<&mut KernelDef, DeviceError> {
        let n = self.kernels.len();
        self.kernels
            .get_mut(k.0 as usize)
            .ok_or_else(|| DeviceError::api(format!("kernel handle {} does not exist ({n} kernels)", k.0)))
    }

    /// `SetRuntimeArgs(program, kernel, cores, args)`.
    pub fn set_runtime_args(
        &mut self,
        k: KernelHandle,
        cores: impl Into<CoreRangeSet>,
        args: &[u32],
    ) -> Result<(), DeviceError> {
        let cores = cores.into();
        let def = self.kernel_mut(k)?;
        for c in cores.iter() {
            if !def.cores.contains(c) {
                return Err(DeviceError::api(format!(
                    "SetRuntimeArgs: kernel `{}` does not run on core ({},{})",
                    def.name, c.x, c.y
                )));
            }
            check_arg_count(&def.name, c, args.len(), def.common_args.len())?;
            def.runtime_args.insert((c.x, c.y), args.to_vec());
        }
        Ok(())
    }

    /// `SetCommonRuntimeArgs(program, kernel, args)`.
    pub fn set_common_runtime_args(&mut self, k: KernelHandle, args: &[u32]) -> Result<(), DeviceError> {
        let def = self.kernel_mut(k)?;
        for ((x, y), v) in &def.runtime_args {
            check_arg_count(&def.name, CoreCoord::new(*x, *y), v.len(), args.len())?;
        }
        if args.len() > MAX_RUNTIME_ARGS {
            check_arg_count(&def.name, CoreCoord::new(0, 0), 0, args.len())?;
        }
        def.common_args = args.to_vec();
        Ok(())
    }

    /// `GetRuntimeArgs(program, kernel, core)`: the unique args of one core, to change in place.
    pub fn runtime_args_mut(&mut self, k: KernelHandle, core: CoreCoord) -> Result<&mut Vec<u32>, DeviceError> {
        let def = self.kernel_mut(k)?;
        if !def.cores.contains(core) {
            return Err(DeviceError::api(format!(
                "GetRuntimeArgs: kernel `{}` does not run on core ({},{})",
                def.name, core.x, core.y
            )));
        }
        Ok(def.runtime_args.entry((core.x, core.y)).or_default())
    }

    /// `GetCommonRuntimeArgs(program, kernel)`.
    pub fn common_runtime_args_mut(&mut self, k: KernelHandle) -> Result<&mut Vec<u32>, DeviceError> {
        Ok(&mut self.kernel_mut(k)?.common_args)
    }

    /// Number of kernels.
    pub fn num_kernels(&self) -> usize {
        self.kernels.len()
    }
}

pub(crate) fn check_arg_count(kernel: &str, c: CoreCoord, unique: usize, common: usize) -> Result<(), DeviceError> {
    if unique + common > MAX_RUNTIME_ARGS {
        return Err(DeviceError::api(format!(
            "SetRuntimeArgs: kernel `{kernel}` on core ({},{}) would have {unique} unique + {common} common = {} runtime args; \
             the limit is {MAX_RUNTIME_ARGS}",
            c.x,
            c.y,
            unique + common
        )));
    }
    Ok(())
}
