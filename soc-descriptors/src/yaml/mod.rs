//! The only module in tensim that parses YAML: raw serde shapes of the SoC, core and cluster descriptor files
//! (`raw_soc`, `raw_core`, `raw_cluster`), and a generic typed parser other crates use for their YAML inputs.
//! serde_yaml is unmaintained; swapping it must touch this module only.
//!
//! Every error comes back as a [`SocError`] naming the file, the line and column where serde_yaml knows them,
//! and the key path (`dram_views[3].channel`).

use crate::error::SocError;
use serde::Deserialize;
use serde::de::{self, DeserializeOwned, Deserializer, SeqAccess, Visitor};
use std::fmt;

mod raw_cluster;
mod raw_core;
mod raw_soc;

pub(crate) use raw_cluster::*;
pub(crate) use raw_core::*;
pub(crate) use raw_soc::*;

/// The largest YAML input tensim parses (real descriptors are tens of KiB).
pub const MAX_YAML_BYTES: usize = 16 << 20;
/// The deepest nesting of flow collections (`[`, `{`) tensim parses: real descriptors nest a few levels;
/// the parser's time grows with the square of the depth.
pub const MAX_YAML_FLOW_DEPTH: usize = 64;

/// Refuse input the parser would take minutes on: too large, or flow collections nested too deep (outside
/// quoted strings and comments).
fn check_shape(text: &str, file: &str) -> Result<(), SocError> {
    if text.len() > MAX_YAML_BYTES {
        return Err(SocError::new(file, format!("{} bytes of YAML is more than tensim reads", text.len()))
            .hint(format!("descriptor and parameter files are small; the limit is {} MiB", MAX_YAML_BYTES >> 20)));
    }
    let (mut depth, mut line, mut col) = (0usize, 1usize, 0usize);
    let mut quote: Option<char> = None;
    let mut comment = false;
    let mut prev = ' ';
    for c in text.chars() {
        col += 1;
        if c == '\n' {
            line += 1;
            col = 0;
            comment = false;
            prev = c;
            continue;
        }
        if comment {
            continue;
        }
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                // A quoted scalar starts a token (`x: 'a'`, `[ "b" ]`); an apostrophe inside a word does not.
                '"' | '\'' if prev.is_whitespace() || matches!(prev, '[' | '{' | ',' | ':') => quote = Some(c),
                '#' if prev.is_whitespace() => comment = true,
                '[' | '{' => {
                    depth += 1;
                    if depth > MAX_YAML_FLOW_DEPTH {
                        return Err(SocError::new(
                            file,
                            format!("brackets nested more than {MAX_YAML_FLOW_DEPTH} deep"),
                        )
                        .at(line, col)
                        .hint("descriptor and parameter files nest a few levels; check the brackets"));
                    }
                }
                ']' | '}' => depth = depth.saturating_sub(1),
                _ => {}
            },
        }
        prev = c;
    }
    Ok(())
}

/// Parse `text` (the contents of `file`) into `T`, reporting errors with file, line/column and key path.
pub fn parse_yaml<T: DeserializeOwned>(text: &str, file: &str) -> Result<T, SocError> {
    check_shape(text, file)?;
    let de = serde_yaml::Deserializer::from_str(text);
    serde_path_to_error::deserialize(de).map_err(|e| path_error(e, file, ""))
}

/// A mapping whose keys must each appear once (YAML allows a repeated key to replace the first silently; a
/// parameter file with `noc.hop_cycles` twice is a mistake), in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct UniqueMap<V>(pub Vec<(String, V)>);

impl<'de, V: Deserialize<'de>> Deserialize<'de> for UniqueMap<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V2<V>(std::marker::PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for V2<V> {
            type Value = UniqueMap<V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a mapping of keys to values")
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(UniqueMap(Vec::new()))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
                let mut out: Vec<(String, V)> = Vec::new();
                while let Some(k) = m.next_key::<String>()? {
                    if out.iter().any(|(seen, _)| *seen == k) {
                        return Err(de::Error::custom(format!(
                            "duplicate key `{k}`: each key may appear once (the second would silently replace the first)"
                        )));
                    }
                    let v = m.next_value::<V>()?;
                    out.push((k, v));
                }
                Ok(UniqueMap(out))
            }
        }
        d.deserialize_any(V2(std::marker::PhantomData))
    }
}

/// Map a serde_path_to_error error to a [`SocError`]; `prefix` is prepended to the key path.
fn path_error(e: serde_path_to_error::Error<serde_yaml::Error>, file: &str, prefix: &str) -> SocError {
    let path = e.path().to_string();
    let inner = e.into_inner();
    yaml_error(&inner, file, &join_path(prefix, &path))
}

fn join_path(prefix: &str, path: &str) -> String {
    match (prefix.is_empty(), path.is_empty() || path == ".") {
        (true, _) => path.to_string(),
        (false, true) => prefix.to_string(),
        (false, false) if path.starts_with('[') => format!("{prefix}{path}"),
        (false, false) => format!("{prefix}.{path}"),
    }
}

fn yaml_error(inner: &serde_yaml::Error, file: &str, key: &str) -> SocError {
    let mut message = inner.to_string();
    // serde_yaml appends " at line L column C" (and then perhaps ", while parsing …"); we print the
    // location ourselves.
    if let Some(i) = message.find(" at line ") {
        let tail = &message[i + " at line ".len()..];
        let words: Vec<&str> = tail.splitn(4, ' ').collect();
        if words.get(1) == Some(&"column") {
            let rest = words.get(3).copied().unwrap_or_default();
            let joined = if words.get(2).is_some_and(|c| c.ends_with(',')) && !rest.is_empty() {
                format!("{}, {rest}", &message[..i])
            } else {
                format!("{}{rest}", &message[..i])
            };
            message = joined;
        }
    }
    // serde_yaml starts its message with the key path, which the error prints on its own.
    if !key.is_empty()
        && let Some(rest) = message.strip_prefix(key).and_then(|m| m.strip_prefix(": "))
    {
        message = rest.to_string();
    }
    let mut err = SocError::new(file, crate::error::plain_serde_message(&message));
    if !key.is_empty() && key != "." {
        err = err.key(key);
    }
    if let Some(loc) = inner.location() {
        err = err.at(loc.line(), loc.column());
    }
    err
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Doc {
        a: bool,
        b: Vec<String>,
    }

    #[test]
    fn parser_messages_read_as_sentences() {
        for text in ["a: true\nb: [1, ]]\n", "a: [\n", "b: {x: 1, y\n", "a: \"open\n", "- [a, b\n- c\n", "a: b: c\n"] {
            let e = parse_yaml::<Doc>(text, "t.yaml").unwrap_err().to_string();
            let glued = e.as_bytes().windows(6).any(|w| w[0].is_ascii_alphanumeric() && &w[1..] == b"while");
            assert!(!glued, "{text:?}: {e}");
            assert!(!e.contains(": b: b:") && !e.contains("a: a:"), "no doubled key: {e}");
        }
    }

    #[test]
    fn capitalised_booleans_and_trailing_commas_parse() {
        let d: Doc = parse_yaml("a: True\nb: [ 1-1, 2-1, ]\n", "t.yaml").unwrap();
        assert!(d.a);
        assert_eq!(d.b, vec!["1-1", "2-1"]);
    }

    #[test]
    fn unknown_key_names_file_line_and_key() {
        let e = parse_yaml::<Doc>("a: False\nb: []\nzz: 3\n", "t.yaml").unwrap_err();
        assert_eq!(e.file, "t.yaml");
        assert_eq!(e.key.as_deref(), Some("zz"));
        assert_eq!(e.location, Some((3, 1)));
        assert!(e.message.contains("unknown field `zz`"), "{e}");
    }

    #[test]
    fn syntax_error_has_line_and_column() {
        let deep = format!("a: true\nb: {}{}\n", "[".repeat(65), "]".repeat(65));
        let e = parse_yaml::<Doc>(&deep, "t.yaml").unwrap_err().to_string();
        assert!(e.contains("t.yaml:2:") && e.contains("nested more than 64 deep"), "{e}");
        let quoted = format!("a: true\nb: [\"{}\"] # {}\n", "[".repeat(100), "{".repeat(100));
        assert!(parse_yaml::<Doc>(&quoted, "t.yaml").is_ok(), "brackets in strings and comments do not count");
        let e = parse_yaml::<Doc>("a: true\nb: [1-1\n", "t.yaml").unwrap_err();
        assert!(e.location.is_some(), "{e}");
        assert!(e.to_string().starts_with("t.yaml:"), "{e}");
    }
}
