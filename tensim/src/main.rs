//! The `tensim` binary: everything is in the library ([`tensim::main_entry`]), which the Python package
//! calls too.

fn main() -> std::process::ExitCode {
    tensim::main_entry()
}
