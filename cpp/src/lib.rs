//! cpp-kernels: TT-Metalium C++ kernels on tensim. `create_kernel(program, device, "path.cpp", cores,
//! config)` is tt-metal's `CreateKernel` for a kernel file: tensim compiles the file against its own
//! header tree (`include/`, written for tensim from the documented kernel API) with the host C++
//! compiler, caches the shared object by content, loads it, and runs it as a fiber like a Rust kernel.
//! Every API call goes through one C ABI table (`abi.rs`) into the same Rust implementation the Rust
//! kernels use, so the two paths cannot drift apart in behaviour or timing.
//!
//! Host programs in C++ (`host/`) are compiled the same way against tensim's TT-Metalium host headers and
//! run in-process; their calls reach tensim's Rust host API through a second table.
//!
//! Module map: `headers.rs` the header trees built into the binary; `compile.rs` compiler, flags, cache;
//! `ffi.rs` the one unsafe module (loading, entry calls, the running kernel's context, raw pointers, the
//! L1 memory mapping); `abi.rs` the kernel table; `l1_window.rs` L1 in host memory for raw pointers;
//! `host/` host programs (build, table, session).

mod abi;
pub mod compile;
mod ffi;
#[rustfmt::skip]
mod headers;
pub mod host;
pub mod l1_window;

pub use abi::{ABI_VERSION, format_code};
use compile::{Spec, Target, TriscBuild};
use ffi::KernelLib;
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
fn load(path: &Path) -> Result<Arc<KernelLib>, String> {
    static LOADED: LazyLock<Mutex<HashMap<PathBuf, Arc<KernelLib>>>> = LazyLock::new(Default::default);
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(l) = loaded.get(path) {
        return Ok(l.clone());
    }
    let lib = Arc::new(KernelLib::load(path)?);
    loaded.insert(path.to_path_buf(), lib.clone());
    Ok(lib)
}

/// A kernel from a C++ file, built for `config` on `arch`. The kernel's name is the path as given.
pub fn kernel_from_file(path: impl AsRef<Path>, config: &KernelConfig, arch: Arch) -> Result<Kernel, DeviceError> {
    let path = path.as_ref();
    let name = path.display().to_string();
    let err = |e: String| DeviceError::Config(e);
    let spec = |target: Target, compile_args: &[u32], named: &[(String, u32)], defines: &[(String, String)]| Spec {
        source: path.to_path_buf(),
        target,
        compile_args: compile_args.to_vec(),
        named_args: named.to_vec(),
        defines: defines.to_vec(),
        arch_define: arch_define(arch),
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
                let target =
                    Target::Compute { trisc, fidelity, approx: c.math_approx_mode, fp32_dest_acc: c.fp32_dest_acc_en };
                let so =
                    compile::build(&spec(target, &c.compile_args, &c.named_compile_args, &c.defines)).map_err(err)?;
                libs.push(load(&so).map_err(err)?);
            }
            let [unpack, math, pack]: [Arc<KernelLib>; 3] = libs.try_into().expect("three builds");
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

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    fn walk(root: &Path) -> Vec<String> {
        let mut found = Vec::new();
        let mut stack = vec![root.to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else {
                    found.push(p.strip_prefix(root).unwrap().display().to_string());
                }
            }
        }
        found.sort();
        found
    }

    /// `headers.rs` as it must be for the header folders on disk.
    fn expected_headers_rs() -> String {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let mut s = String::from(
            "//! The header trees tensim ships for C++ (`cpp/kernel/include/` for kernels, `cpp/host/include/` for\n\
             //! host programs), built into the binary so that a fresh machine needs nothing but the compiler.\n\
             //! Generated: `TENSIM_BLESS=1 cargo test -p cpp --lib headers` rewrites it from the folders.\n\n",
        );
        for (name, dir, what) in [("HEADERS", "kernel/include", "kernel"), ("HOST_HEADERS", "host/include", "host")] {
            s.push_str(&format!("/// Every {what} header: (path under the include root, text).\n"));
            s.push_str(&format!("pub const {name}: &[(&str, &str)] = &[\n"));
            for f in walk(&root.join(dir)) {
                s.push_str(&format!("    (\"{f}\", include_str!(\"../{dir}/{f}\")),\n"));
            }
            s.push_str("];\n");
        }
        s
    }

    #[test]
    fn headers_rs_lists_every_header_on_disk() {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/headers.rs");
        let want = expected_headers_rs();
        if std::env::var_os("TENSIM_BLESS").is_some() {
            std::fs::write(&path, &want).unwrap();
        }
        let have = std::fs::read_to_string(&path).unwrap();
        assert!(have == want, "src/headers.rs is out of date: run TENSIM_BLESS=1 cargo test -p cpp --lib headers");
    }
}
