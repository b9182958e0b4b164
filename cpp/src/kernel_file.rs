//! A C++ kernel file as a tensim kernel: compiled for its RISCs against tensim's headers (cached by content),
//! loaded once per process, and run as a fiber through the kernel ABI table.

use crate::abi::{self, ABI_VERSION};
use crate::compile::{self, Spec, Target, TriscBuild};
use crate::ffi::{Abi, KernelLib, l1_window};
use sim_device::program::{Kernel, KernelConfig, KernelHandle, MathFidelity, NocMode, Program};
use sim_device::{Arch, CoreRangeSet, Device, DeviceError, NocId};
use sim_tensix::{ComputeRole, DataMovementProcessor};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex};

/// The `ARCH_*` define of an architecture.
fn arch_define(arch: Arch) -> &'static str {
    match arch {
        Arch::WormholeB0 => "ARCH_WORMHOLE",
        Arch::Blackhole => "ARCH_BLACKHOLE",
        Arch::Grayskull => "ARCH_GRAYSKULL",
    }
}

fn noc_number(n: NocId) -> u32 {
    match n {
        NocId::Noc0 => 0,
        NocId::Noc1 => 1,
    }
}

/// Load (once per process) the library built at `path`.
fn load(path: &Path) -> Result<Arc<KernelLib<abi::TensimApi>>, String> {
    type Loaded = HashMap<PathBuf, Arc<KernelLib<abi::TensimApi>>>;
    static LOADED: LazyLock<Mutex<Loaded>> = LazyLock::new(Default::default);
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(l) = loaded.get(path) {
        return Ok(l.clone());
    }
    let lib = Arc::new(KernelLib::load(
        path,
        &Abi {
            table: &abi::TABLE,
            version: ABI_VERSION,
            version_symbol: b"tensim_abi_version\0",
            header: "tensim/abi.h",
        },
    )?);
    loaded.insert(path.to_path_buf(), lib.clone());
    Ok(lib)
}

/// A kernel from a C++ file, built for `config` on `arch`. The kernel's name is the path as given.
pub fn kernel_from_file(path: impl AsRef<Path>, config: &KernelConfig, arch: Arch) -> Result<Kernel, DeviceError> {
    kernel_from_file_with(path, config, arch, &[])
}

/// [`kernel_from_file`] knowing where the host appended TensorAccessorArgs in the compile-time args (today's
/// layout), so a kernel written for the older one-word layout is recognised and built for it.
pub fn kernel_from_file_with(
    path: impl AsRef<Path>,
    config: &KernelConfig,
    arch: Arch,
    accessor_blocks: &[u32],
) -> Result<Kernel, DeviceError> {
    let path = path.as_ref();
    let name = path.display().to_string();
    let err = |e: String| DeviceError::Config(e);
    // The build wrapper lives in the cache: it includes the kernel by an absolute path.
    let path = &path.canonicalize().map_err(|e| {
        err(format!("kernel file {}: {e} (paths are relative to the current folder, or absolute)", path.display()))
    })?;
    let spec = |target: Target, compile_args: &[u32], named: &[(String, u32)], defines: &[(String, String)]| Spec {
        source: path.to_path_buf(),
        target,
        compile_args: compile_args.to_vec(),
        named_args: named.to_vec(),
        defines: defines.to_vec(),
        arch_define: arch_define(arch),
        accessor_blocks: accessor_blocks.to_vec(),
        one_word_accessors: false,
    };
    match config {
        KernelConfig::DataMovement(c) => {
            let riscv = match c.processor {
                DataMovementProcessor::RISCV_0 => 0,
                DataMovementProcessor::RISCV_1 => 1,
            };
            let target =
                Target::DataMovement { riscv, noc: noc_number(c.noc), dynamic_noc: c.noc_mode == NocMode::Dynamic };
            let so = compile::build(&spec(target, &c.compile_args, &c.named_compile_args, &c.defines)).map_err(err)?;
            let lib = load(&so).map_err(err)?;
            Ok(Kernel::dataflow(&name, move |d| lib.run_dataflow(d)))
        }
        KernelConfig::Ethernet(c) => {
            let target = Target::Ethernet { noc: noc_number(c.noc) };
            let so = compile::build(&spec(target, &c.compile_args, &c.named_compile_args, &c.defines)).map_err(err)?;
            let lib = load(&so).map_err(err)?;
            Ok(Kernel::dataflow(&name, move |d| lib.run_dataflow(d)))
        }
        KernelConfig::Compute(c) => {
            let fidelity = match c.math_fidelity {
                MathFidelity::LoFi => 0,
                MathFidelity::HiFi2 => 2,
                MathFidelity::HiFi3 => 3,
                MathFidelity::HiFi4 => 4,
            };
            let mut libs = Vec::with_capacity(3);
            for trisc in [TriscBuild::Unpack, TriscBuild::Math, TriscBuild::Pack] {
                let target = Target::Compute {
                    trisc,
                    fidelity,
                    approx: c.math_approx_mode,
                    fp32_dest_acc: c.fp32_dest_acc_en,
                    dst_full_sync: c.dst_full_sync_en,
                };
                let so =
                    compile::build(&spec(target, &c.compile_args, &c.named_compile_args, &c.defines)).map_err(err)?;
                libs.push(load(&so).map_err(err)?);
            }
            let [unpack, math, pack]: [Arc<KernelLib<abi::TensimApi>>; 3] = libs.try_into().expect("three builds");
            Ok(Kernel::compute(&name, move |c| match c.role() {
                ComputeRole::Unpack => unpack.run_compute(c),
                ComputeRole::Math => math.run_compute(c),
                ComputeRole::Pack => pack.run_compute(c),
            }))
        }
    }
}

/// tt-metal's `CreateKernel(program, "path.cpp", cores, config)` for a C++ kernel file, built for the
/// device's architecture. The device's L1s move into host memory the kernel may dereference.
pub fn create_kernel(
    program: &mut Program,
    device: &mut Device,
    path: impl AsRef<Path>,
    cores: impl Into<CoreRangeSet>,
    config: impl Into<KernelConfig>,
) -> Result<KernelHandle, DeviceError> {
    let config = config.into();
    l1_window::map_device(device).map_err(DeviceError::Config)?;
    let kernel = kernel_from_file(path, &config, device.arch())?;
    program.create_kernel(kernel, cores, config)
}
