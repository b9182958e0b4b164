//! The `tensim` command as a library: its subcommands, and [`invoke`], which runs one command line in
//! this process and hands back what it printed (the binary and the Python package both call it). Exits: 0
//! on success (also when standard output is closed early, e.g. piped into `head`), 1 with one clear message
//! for a user mistake or a failed run, and 70 with one line ("internal error in tensim: …") for a bug in
//! tensim itself.

mod chip_args;
mod cmd_build_and_run;
mod cmd_device;
mod cmd_dm_bench;
mod cmd_gemm_bench;
mod cmd_layout;
mod cmd_params;
mod cmd_replay;
mod cmd_run;
mod cmd_soc;
mod cmd_system;
mod dprint;
mod error;
mod measured;
mod out;
mod outputs;
mod work;

mod cli;
mod describe;

use clap::Parser;
use cli::{Cli, Command};
use error::CliError;
use std::process::ExitCode;

pub use describe::describe_json;

/// The exit code of an internal error (a panic in tensim's own code), as `EX_SOFTWARE` of sysexits.h.
pub const EXIT_INTERNAL: u8 = 70;

/// Turn a panic anywhere in tensim into one line on standard error (no backtrace); `main` then exits 70.
fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let msg = panic_message(info.payload());
        let at = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        eprintln!("{}", internal_error_line(&msg, &at));
    }));
}

/// The message of a panic's payload (a `&str` or a `String`; anything else says so).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic with no message".to_string()
    }
}

/// The line an internal error prints: the panic's message, where it happened, and what to do.
pub fn internal_error_line(msg: &str, at: &str) -> String {
    format!(
        "internal error in tensim: {msg}{at}; please report it with the command that caused it \
         (https://example.invalid/tensim/issues)"
    )
}

fn dispatch(cli: Cli) -> Result<ExitCode, CliError> {
    match cli.command {
        Command::Run(a) => cmd_run::run(&a),
        Command::BuildAndRun(a) => cmd_build_and_run::run(&a),
        Command::DmBench(a) => cmd_dm_bench::run(&a),
        Command::GemmBench(a) => cmd_gemm_bench::run(&a),
        Command::Replay(a) => cmd_replay::run(&a),
        Command::Soc(a) => cmd_soc::run(&a),
        Command::System(a) => cmd_system::run(&a),
        Command::Device(a) => cmd_device::run(&a),
        Command::Params(a) => cmd_params::run(&a),
        Command::Layout(a) => cmd_layout::run(&a),
    }
}

/// A dispatched command's exit code and the error that ended it: 0 on success (or a closed standard output),
/// 1 with the user error or a failed check (no error: its FAIL line is on standard output), and
/// [`EXIT_INTERNAL`] with the internal error's line after a panic.
fn settle(r: std::thread::Result<Result<ExitCode, CliError>>) -> (u8, Option<String>) {
    match r {
        Ok(Ok(code)) => (if code == ExitCode::SUCCESS { 0 } else { 1 }, None),
        Ok(Err(CliError::Closed)) => (0, None),
        Ok(Err(CliError::User(m))) => (1, Some(m)),
        Err(p) => (EXIT_INTERNAL, Some(internal_error_line(&panic_message(p.as_ref()), ""))),
    }
}

/// What one command line did when run by [`invoke`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invocation {
    /// The exit code the command would end with: 0, 1 (a user mistake or a failed check) or
    /// [`EXIT_INTERNAL`].
    pub exit_code: u8,
    /// Everything the command printed on standard output.
    pub stdout: String,
    /// Warnings and notes it printed on standard error (not the error itself).
    pub stderr: String,
    /// The error that ended it (the text after `error: `), or the internal error's line; `None` on
    /// success and for a run whose check failed (exit code 1 with its FAIL line on `stdout`).
    pub error: Option<String>,
}

/// Run one command line (`argv[0]` is the program name) in this process with its output captured instead
/// of printed: the same parsing, checks and code as the `tensim` binary. A panic is caught and returned as
/// an internal error; `--help` and `--version` come back as `stdout`.
pub fn invoke(argv: &[String]) -> Invocation {
    out::capture_start();
    let (exit_code, error) = match Cli::try_parse_from(argv) {
        Err(e) if e.use_stderr() => {
            // clap's message without its `error: ` prefix and the pointer to --help (a caller's own help).
            let text = e.render().to_string();
            let kept: Vec<&str> = text.lines().filter(|l| !l.starts_with("For more information")).collect();
            (1, Some(kept.join("\n").trim().trim_start_matches("error: ").to_string()))
        }
        Err(e) => {
            let _ = out::text(&e.render().to_string());
            (0, None)
        }
        Ok(cli) => settle(std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| dispatch(cli)))),
    };
    let (stdout, stderr) = out::capture_take();
    Invocation { exit_code, stdout, stderr, error }
}

/// Run the `tensim` binary: parse the process's arguments, set up logging, run, and exit.
pub fn main_entry() -> ExitCode {
    install_panic_hook();
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
    let (code, error) = settle(std::panic::catch_unwind(|| dispatch(cli)));
    // A panic's line was printed by the hook as it happened; a user error is printed here.
    if let (1, Some(m)) = (code, error) {
        eprintln!("error: {m}");
    }
    ExitCode::from(code)
}
