//! The command line's errors: a user mistake (printed as one line, exit 1) or a closed standard output
//! (the reader went away, e.g. `tensim … | head`: stop quietly, exit 0).

use std::fmt;

/// Why a command stopped early.
#[derive(Debug)]
pub enum CliError {
    /// A user mistake or a failed run: one clear message.
    User(String),
    /// Standard output was closed.
    Closed,
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::User(m) => f.write_str(m),
            CliError::Closed => f.write_str("standard output closed"),
        }
    }
}

impl From<String> for CliError {
    fn from(s: String) -> Self {
        CliError::User(s)
    }
}

impl From<&str> for CliError {
    fn from(s: &str) -> Self {
        CliError::User(s.to_string())
    }
}

macro_rules! user_error_from {
    ($($t:ty),*) => {$(
        impl From<$t> for CliError {
            fn from(e: $t) -> Self {
                CliError::User(e.to_string())
            }
        }
    )*};
}
user_error_from!(
    sim_device::DeviceError,
    sim_device::ParamError,
    suites::replay::ReplayError,
    soc_descriptors::SocError,
    soc_descriptors::input::InputError
);

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            CliError::Closed
        } else {
            CliError::User(format!("cannot write to standard output: {}", soc_descriptors::input::io_reason(&e)))
        }
    }
}

/// How the command line spells a program's options (`--size`, `--size 5`).
pub(crate) const FLAGS: programs::Spelling =
    programs::Spelling { option: |o| format!("--{o}"), with_value: |o, v| format!("--{o} {v}") };

impl From<programs::ProgramError> for CliError {
    fn from(e: programs::ProgramError) -> Self {
        CliError::User(e.render(&FLAGS))
    }
}

impl From<programs::OptionError> for CliError {
    fn from(e: programs::OptionError) -> Self {
        CliError::User(e.render(&FLAGS))
    }
}

/// The result of a command.
pub type CliResult<T> = Result<T, CliError>;
