//! `tensim._native`: the simulator's command line run in the Python process. One call runs one command line
//! through the same library as the `tensim` binary (parsing, checks, simulation), with the GIL released
//! while it works, and hands back what it printed; the Python package (`tensim/`) builds the command lines,
//! reads the JSON outputs and raises `TensimError` with the command's own message.

#![deny(unsafe_code)]

use pyo3::prelude::*;
use pyo3::types::PyDict;

/// invoke(argv: list[str]) -> dict
///
/// Run one tensim command line (argv[0] is the program name, e.g. ["tensim", "run", "loopback"]) in this
/// process. Returns {"exit_code": int, "stdout": str, "stderr": str, "error": str | None}: exit code 0 on
/// success, 1 for a user mistake (error says what and how to fix it) or a failed check, 70 for an internal
/// error (a bug in tensim; error holds the panic's message).
#[pyfunction]
fn invoke<'py>(py: Python<'py>, argv: Vec<String>) -> PyResult<Bound<'py, PyDict>> {
    let inv = py.detach(|| tensim::invoke(&argv));
    let d = PyDict::new(py);
    d.set_item("exit_code", inv.exit_code)?;
    d.set_item("stdout", inv.stdout)?;
    d.set_item("stderr", inv.stderr)?;
    d.set_item("error", inv.error)?;
    Ok(d)
}

/// describe() -> str
///
/// The command line as JSON: every subcommand's options (name, type, repeatable, choices, default, help)
/// and every built-in program with the options it takes.
#[pyfunction]
fn describe() -> String {
    tensim::describe_json()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(invoke, m)?)?;
    m.add_function(wrap_pyfunction!(describe, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
