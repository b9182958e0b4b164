//! Everything tensim prints on standard output goes through `say!`: a write error is returned (a closed
//! pipe becomes [`CliError::Closed`](crate::error::CliError), which ends the command quietly) instead of
//! the panic `println!` raises. Progress bars for long work go to standard error, only when it is a
//! terminal.

use indicatif::{ProgressBar, ProgressStyle};
use std::cell::RefCell;
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};

/// Write one formatted line to standard output; `?`-propagates a closed pipe.
macro_rules! say {
    () => {
        $crate::out::line(format_args!(""))?
    };
    ($($t:tt)*) => {
        $crate::out::line(format_args!($($t)*))?
    };
}

/// Write one formatted line to standard error (warnings, timings); a closed standard error is ignored.
macro_rules! note {
    ($($t:tt)*) => {
        $crate::out::note_line(format_args!($($t)*))
    };
}

pub(crate) use {note, say};

thread_local! {
    /// While a command runs under [`crate::invoke`]: what it printed (standard output, standard error).
    static CAPTURE: RefCell<Option<(String, String)>> = const { RefCell::new(None) };
}

/// Capture this thread's output from now on instead of printing it.
pub(crate) fn capture_start() {
    CAPTURE.with(|c| *c.borrow_mut() = Some((String::new(), String::new())));
}

/// Stop capturing and return what was captured (standard output, standard error).
pub(crate) fn capture_take() -> (String, String) {
    CAPTURE.with(|c| c.borrow_mut().take()).unwrap_or_default()
}

/// Append to the capture if this thread has one; `false` when output goes to the terminal.
fn captured(args: std::fmt::Arguments, to_stderr: bool, newline: bool) -> bool {
    CAPTURE.with(|c| match c.borrow_mut().as_mut() {
        Some((out, err)) => {
            let s = if to_stderr { err } else { out };
            let _ = s.write_fmt(args);
            if newline {
                s.push('\n');
            }
            true
        }
        None => false,
    })
}

/// Write `args` and a newline to standard error (the `note!` macro).
pub fn note_line(args: std::fmt::Arguments) {
    if !captured(args, true, true) {
        let _ = writeln!(std::io::stderr(), "{args}");
    }
}

/// Write `args` and a newline to standard output.
pub fn line(args: std::fmt::Arguments) -> Result<(), crate::error::CliError> {
    if captured(args, false, true) {
        return Ok(());
    }
    let mut out = std::io::stdout().lock();
    out.write_fmt(args)?;
    out.write_all(b"\n")?;
    Ok(())
}

/// Write `text` as it is (it carries its own newlines).
pub fn text(text: &str) -> Result<(), crate::error::CliError> {
    if captured(format_args!("{text}"), false, false) {
        return Ok(());
    }
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    Ok(())
}

/// Whether progress may be drawn on standard error: it is a terminal and output is not captured.
fn show_progress() -> bool {
    std::io::stderr().is_terminal() && CAPTURE.with(|c| c.borrow().is_none())
}

/// A spinner on standard error for one long run (none unless standard error is a terminal).
pub fn spinner(what: &str) -> Option<ProgressBar> {
    if !show_progress() {
        return None;
    }
    let s = ProgressBar::new_spinner();
    s.set_message(what.to_string());
    s.enable_steady_tick(std::time::Duration::from_millis(200));
    Some(s)
}

/// A progress bar of `len` steps on standard error, hidden unless standard error is a terminal.
pub fn progress(len: u64, what: &str) -> ProgressBar {
    if !show_progress() || len < 2 {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    let style = ProgressStyle::with_template("{msg} [{bar:32}] {pos}/{len} ({elapsed}, about {eta} left)")
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
    bar.set_style(style);
    bar.set_message(what.to_string());
    bar
}

/// How a summary of grouped kernel rows says per-core rows are had.
pub(crate) const PER_CORE_NOTE: &str = "per-core rows: --per-core";
