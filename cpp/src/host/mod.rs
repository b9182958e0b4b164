//! C++ host programs on tensim: a program folder written against TT-Metalium's host API
//! (`tt-metalium/host_api.hpp` and friends) compiled against tensim's own host headers (`host/include/`,
//! written for tensim from the documented signatures) and run in-process. Every host call goes through
//! one C ABI table (`abi.rs`) into tensim's Rust host API on a per-thread session (`session.rs`).

pub(crate) mod abi;
pub mod build;
mod call;
pub mod fuzz;
mod memory;
mod mesh;
pub(crate) mod session;

pub use session::{AutoSystem, HostConfig, OnRun, OpenDevice, PickSystem, RunAdvice, SystemLinks};
use std::path::Path;

/// How a host program ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostOutcome {
    /// `main`'s return value, or the code it passed to `exit`.
    pub exit_code: i32,
    /// `main` ended by calling `exit` (or `_exit`, `_Exit`, `quick_exit`).
    pub exited: bool,
    /// Programs run on devices.
    pub programs_run: u32,
    /// Mesh workloads whose chips ran together.
    pub mesh_runs: u32,
}

/// Run a built host program (`build::build`) with `args` (`argv[0]` first) on a session configured by
/// `cfg`. An exception that ends `main` (tt-metal's TT_THROW/TT_FATAL, or an error tensim reported to a
/// host call) is an error with its text.
pub fn run(lib: &Path, cfg: HostConfig, args: &[String]) -> Result<HostOutcome, String> {
    crate::ffi::install_fault_handler();
    crate::ffi::set_program(args.first().map_or("", String::as_str));
    let who = crate::ffi::Who::host();
    let table = crate::ffi::Abi {
        table: &abi::HOST_TABLE,
        version: abi::HOST_ABI_VERSION,
        version_symbol: b"tensim_host_abi_version\0",
        header: "tensim/host_abi.h",
    };
    let lib = crate::ffi::HostLib::load(lib, &who, &table)?;
    let (r, s) = session::with_session(cfg, || lib.run_main(args, &who));
    let (exit_code, exited) = match r? {
        crate::ffi::MainEnd::Returned(c) => (c, false),
        crate::ffi::MainEnd::Exited(c) => (c, true),
    };
    Ok(HostOutcome { exit_code, exited, programs_run: s.runs, mesh_runs: s.mesh_runs })
}
