//! A parameter that cannot be used: where it came from, the key, the value as written and what is wrong.

use std::fmt;

/// What is wrong with a parameter value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParamProblem {
    /// No such key; similar keys.
    UnknownKey(Vec<&'static str>),
    /// Not `KEY=VALUE`.
    NotAssignment,
    /// Not a number at all.
    NotANumber,
    /// A fraction where a whole number is needed.
    NotWhole,
    /// Below zero.
    Negative,
    /// Outside the key's range (or too wide for its type).
    OutOfRange(String),
    /// Not a power of two.
    NotPowerOfTwo(String),
    /// Not one of the names a named key takes.
    NotAChoice(String),
    /// The data file lacks the key.
    Missing,
    /// Two keys contradict each other.
    Inconsistent(String),
    /// The file cannot be read or parsed.
    File(String),
}

/// A parameter that cannot be used: where it came from, the key, the value as written and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamError {
    /// Where the value came from: what the caller named (the command line's `--set`), a file path, or
    /// `built-in <arch> parameters`.
    pub origin: String,
    /// The key (empty for whole-file problems).
    pub key: String,
    /// The value as the user wrote it.
    pub value: String,
    /// What is wrong.
    pub problem: ParamProblem,
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match (self.key.is_empty(), self.value.is_empty()) {
            (true, _) => String::new(),
            (false, true) => format!("{}: ", self.key),
            (false, false) => format!("{} = {}: ", self.key, self.value),
        };
        // A file problem's text already names the file (with its line) when it comes from the parser.
        if let ParamProblem::File(why) = &self.problem
            && self.key.is_empty()
            && why.starts_with(self.origin.as_str())
        {
            return f.write_str(why);
        }
        write!(f, "{}: {what}", self.origin)?;
        match &self.problem {
            ParamProblem::UnknownKey(similar) => {
                write!(f, "unknown parameter")?;
                if !similar.is_empty() {
                    write!(f, "; known keys include {}", similar.join(", "))?;
                }
                write!(f, " (`tensim params` lists them all)")
            }
            ParamProblem::NotAssignment => write!(f, "expected KEY=VALUE, e.g. {} noc.hop_cycles=9", self.origin),
            ParamProblem::NotANumber => write!(f, "not a number"),
            ParamProblem::NotWhole => write!(f, "must be a whole number"),
            ParamProblem::Negative => write!(f, "must not be negative"),
            ParamProblem::OutOfRange(allowed) => write!(f, "out of range; allowed {allowed}"),
            ParamProblem::NotPowerOfTwo(allowed) => write!(f, "must be {allowed}"),
            ParamProblem::NotAChoice(allowed) => write!(f, "must be {allowed}"),
            ParamProblem::Missing => write!(f, "missing from the data file"),
            ParamProblem::Inconsistent(why) => f.write_str(why),
            ParamProblem::File(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for ParamError {}
