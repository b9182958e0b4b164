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
        if let Some(key) = &self.key
            && !key.is_empty()
            && key != "."
        {
            write!(f, "{key}: ")?;
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

/// A serde error message in the user's words: the shape that was expected (`a whole number`, `a list`,
/// `a mapping`…) instead of Rust type names (`u64`, `a sequence`, `struct RawSoc`).
pub fn plain_serde_message(msg: &str) -> String {
    // Longest first, so that `u64` does not eat part of a longer name.
    const WORDS: [(&str, &str); 22] = [
        ("a borrowed string", "text"),
        ("a string", "text"),
        ("a sequence", "a list"),
        ("a map", "a mapping"),
        ("a boolean", "true or false"),
        ("a unit value", "nothing"),
        ("unit value", "nothing"),
        ("floating point", "number"),
        ("integer", "whole number"),
        // A sized integer type becomes its range, so that an out-of-range value reads as such.
        ("usize", "a whole number from 0 to 18446744073709551615"),
        ("u128", "a whole number of at least 0"),
        ("u64", "a whole number from 0 to 18446744073709551615"),
        ("u32", "a whole number from 0 to 4294967295"),
        ("u16", "a whole number from 0 to 65535"),
        ("u8", "a whole number from 0 to 255"),
        ("i128", "a whole number"),
        ("i64", "a whole number from -9223372036854775808 to 9223372036854775807"),
        ("i32", "a whole number from -2147483648 to 2147483647"),
        ("i16", "a whole number from -32768 to 32767"),
        ("i8", "a whole number from -128 to 127"),
        ("f64", "a number"),
        ("f32", "a number"),
    ];
    // serde_yaml reads an integer past 64 bits as a 128-bit one: "integer `…` as u128, expected u64".
    let msg = msg.replace(" as u128,", ",").replace(" as i128,", ",");
    let mut out = String::with_capacity(msg.len());
    let mut rest = msg.as_str();
    'outer: while !rest.is_empty() {
        // `struct Name` and `enum Name` become `a mapping` and `one of the listed names`.
        for (prefix, with) in [("struct ", "a mapping"), ("enum ", "one of the listed names")] {
            if let Some(tail) = rest.strip_prefix(prefix) {
                let end = tail.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(tail.len());
                if end > 0 && out.chars().last().is_none_or(|c| !c.is_alphanumeric()) {
                    out.push_str(with);
                    rest = &tail[end..];
                    continue 'outer;
                }
            }
        }
        for (from, to) in WORDS {
            if let Some(tail) = rest.strip_prefix(from) {
                let before_ok = out.chars().last().is_none_or(|c| !c.is_alphanumeric());
                let after_ok = tail.chars().next().is_none_or(|c| !c.is_alphanumeric());
                if before_ok && after_ok {
                    out.push_str(to);
                    rest = tail;
                    continue 'outer;
                }
            }
        }
        let c = rest.chars().next().expect("non-empty");
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out.replace("a a whole number", "a whole number").replace("an a whole number", "a whole number")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_words_become_plain_words() {
        assert_eq!(
            plain_serde_message("invalid type: string \"x\", expected u64"),
            "invalid type: string \"x\", expected a whole number from 0 to 18446744073709551615"
        );
        assert_eq!(plain_serde_message("invalid type: map, expected a sequence"), "invalid type: map, expected a list");
        assert_eq!(
            plain_serde_message("invalid type: sequence, expected struct RawSoc"),
            "invalid type: sequence, expected a mapping"
        );
        assert_eq!(
            plain_serde_message("invalid value: integer `-1`, expected u32"),
            "invalid value: whole number `-1`, expected a whole number from 0 to 4294967295"
        );
        assert_eq!(
            plain_serde_message("invalid value: integer `18446744073709551615`, expected i64"),
            "invalid value: whole number `18446744073709551615`, expected a whole number from -9223372036854775808 to 9223372036854775807"
        );
        assert_eq!(plain_serde_message("expected f64 for u64x"), "expected a number for u64x");
    }
}
