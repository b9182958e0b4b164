//! Everything tensim prints on standard output goes through `say!`: a write error is returned (a closed
//! pipe becomes [`CliError::Closed`](crate::error::CliError), which ends the command quietly) instead of
//! the panic `println!` raises. Progress bars for long work go to standard error, only when it is a
//! terminal.

use indicatif::{ProgressBar, ProgressStyle};
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
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

pub(crate) use {note, say};

/// Write `args` and a newline to standard output.
pub fn line(args: std::fmt::Arguments) -> Result<(), crate::error::CliError> {
    let mut out = std::io::stdout().lock();
    out.write_fmt(args)?;
    out.write_all(b"\n")?;
    Ok(())
}

/// Write `text` as it is (it carries its own newlines).
pub fn text(text: &str) -> Result<(), crate::error::CliError> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    Ok(())
}

/// A spinner on standard error for one long run (none unless standard error is a terminal).
pub fn spinner(what: &str) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let s = ProgressBar::new_spinner();
    s.set_message(what.to_string());
    s.enable_steady_tick(std::time::Duration::from_millis(200));
    Some(s)
}

/// A progress bar of `len` steps on standard error, hidden unless standard error is a terminal.
pub fn progress(len: u64, what: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() || len < 2 {
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
