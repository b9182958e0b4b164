//! Errors of descriptor parsing and validation: every error names the file, the key path and the offending value.

use std::fmt;

/// A user-facing error about a descriptor (or other YAML input) file.
///
/// Display form: `FILE[:LINE:COL]: KEY: MESSAGE (got `VALUE`); HINT`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SocError {
    /// The file as the user named it (or `built-in wormhole_b0` for built-in descriptions).
    pub file: String,
    /// Line and column (1-based) when known.
    pub location: Option<(usize, usize)>,
    /// Key path inside the document, e.g. `dram_views[3].channel`.
    pub key: Option<String>,
    /// The offending value as written, when there is one.
    pub value: Option<String>,
    /// What is wrong.
    pub message: String,
    /// What would fix it.
    pub hint: Option<String>,
}

impl SocError {
    /// A new error about `file`.
    pub fn new(file: impl Into<String>, message: impl Into<String>) -> Self {
        SocError { file: file.into(), location: None, key: None, value: None, message: message.into(), hint: None }
    }

    /// Attach the key path.
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }

    /// Attach the offending value.
    pub fn value(mut self, value: impl fmt::Display) -> Self {
        self.value = Some(value.to_string());
        self
    }

    /// Attach a hint saying what would fix the problem.
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Attach a line/column location.
    pub fn at(mut self, line: usize, column: usize) -> Self {
        self.location = Some((line, column));
        self
    }
}

impl fmt::Display for SocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some((line, col)) = self.location {
            write!(f, ":{line}:{col}")?;
        }
        write!(f, ": ")?;
        if let Some(key) = &self.key {
            if !key.is_empty() && key != "." {
                write!(f, "{key}: ")?;
            }
        }
        write!(f, "{}", self.message)?;
        if let Some(v) = &self.value {
            write!(f, " (got `{v}`)")?;
        }
        if let Some(h) = &self.hint {
            write!(f, "; {h}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SocError {}
