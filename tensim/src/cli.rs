//! The command line's shape: the top-level options and one subcommand per `cmd_*` module (what `invoke`
//! parses and `describe` lists).

use crate::{
    cmd_build_and_run, cmd_device, cmd_dm_bench, cmd_gemm_bench, cmd_layout, cmd_params, cmd_replay, cmd_run, cmd_soc,
    cmd_system,
};
use clap::{Parser, Subcommand};

/// tensim: a cycle-approximate simulator of Tenstorrent chips (Wormhole B0, Blackhole, Grayskull).
#[derive(Parser, Debug)]
#[command(name = "tensim", version, about, long_about = None, propagate_version = true)]
pub(crate) struct Cli {
    /// More logging (-v info, -vv debug, -vvv trace).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub(crate) verbose: u8,
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Run a built-in program, check its output, and report cycles per core and RISC.
    Run(cmd_run::RunArgs),
    /// Compile a TT-Metalium C++ program folder (host code and kernels) against tensim and run it.
    BuildAndRun(cmd_build_and_run::BuildAndRunArgs),
    /// Run a data-movement benchmark suite and optionally compare it with a measured table.
    DmBench(cmd_dm_bench::DmBenchArgs),
    /// Time the GEMM benchmark's matmuls (TTNN's 2-D multicast program) and optionally compare with a measured CSV.
    GemmBench(cmd_gemm_bench::GemmBenchArgs),
    /// Replay a NoC trace captured on silicon (or a tt-npe workload, or a directory of them).
    Replay(cmd_replay::ReplayArgs),
    /// Describe a chip: NoC grid, tiles, L1 and DRAM, DRAM banks, worker and compute grids, a grid map.
    Soc(cmd_soc::SocArgs),
    /// Describe a system of chips: chips, mesh, Ethernet links (a built-in system or a cluster descriptor).
    System(cmd_system::SystemArgs),
    /// A device view over a system (seed 003): logical worker grid, its map to (chip, y, x), mesh, chips.
    Device(cmd_device::DeviceArgs),
    /// List every timing and memory parameter of a chip with its value, allowed range and source.
    Params(cmd_params::ParamsArgs),
    /// Where a tensor's elements live: tt.metal_layout, TTNN tensor specs, N-D buffer distributions.
    Layout(cmd_layout::LayoutArgs),
}
