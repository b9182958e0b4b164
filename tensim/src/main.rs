//! The `tensim` command: subcommands, logging setup, and one clear error message (exit code 1) for user errors.

mod chip_args;
mod cmd_dm_bench;
mod cmd_replay;
mod cmd_run;
mod cmd_soc;
mod outputs;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// tensim: a cycle-approximate simulator of Tenstorrent chips (Wormhole B0, Blackhole, Grayskull).
#[derive(Parser, Debug)]
#[command(name = "tensim", version, about, long_about = None, propagate_version = true)]
struct Cli {
    /// More logging (-v info, -vv debug, -vvv trace).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run a built-in program, check its output, and report cycles per core and RISC.
    Run(cmd_run::RunArgs),
    /// Run a data-movement benchmark suite and optionally compare it with a measured table.
    DmBench(cmd_dm_bench::DmBenchArgs),
    /// Replay a NoC trace captured on silicon (or a tt-npe workload, or a directory of them).
    Replay(cmd_replay::ReplayArgs),
    /// Describe a chip: NoC grid, tiles, L1 and DRAM, DRAM banks, worker and compute grids, a grid map.
    Soc(cmd_soc::SocArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            // --help and --version print to stdout and succeed; every usage mistake is a user error (1).
            let _ = e.print();
            return if e.use_stderr() { ExitCode::from(1) } else { ExitCode::SUCCESS };
        }
    };
    let level = match cli.verbose {
        0 => tracing::Level::WARN,
        1 => tracing::Level::INFO,
        2 => tracing::Level::DEBUG,
        _ => tracing::Level::TRACE,
    };
    tracing_subscriber::fmt()
        .with_max_level(level)
        .with_writer(std::io::stderr)
        .with_target(false)
        .without_time()
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let result = match cli.command {
        Command::Run(a) => cmd_run::run(&a),
        Command::DmBench(a) => cmd_dm_bench::run(&a),
        Command::Replay(a) => cmd_replay::run(&a),
        Command::Soc(a) => cmd_soc::run(&a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}
