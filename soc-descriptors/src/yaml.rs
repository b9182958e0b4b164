//! The only module in tensim that parses YAML: raw serde shapes of the SoC and core descriptor files, and a
//! generic typed parser other crates use for their YAML inputs. serde_yaml is unmaintained; swapping it must
//! touch this file only.
//!
//! Every error comes back as a [`SocError`] naming the file, the line and column where serde_yaml knows them,
//! and the key path (`dram_views[3].channel`).

use crate::error::SocError;
use serde::Deserialize;
use serde::de::{self, DeserializeOwned, Deserializer, SeqAccess, Visitor};
use std::fmt;

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

// ---------------------------------------------------------------------------------------------------------
// SoC descriptor (tt-metal soc_descriptors/*.yaml and tt-umd soc_descs/*.yaml)
// ---------------------------------------------------------------------------------------------------------

/// A coordinate string `X-Y` as written (parsed and checked by the descriptor validation).
pub(crate) type RawCoord = String;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSoc {
    pub grid: RawGrid,
    pub arc: Vec<RawCoord>,
    pub pcie: Vec<RawCoord>,
    pub dram: Vec<RawDramChannel>,
    #[serde(default)]
    pub dram_views: Option<Vec<RawDramView>>,
    #[serde(default)]
    pub dram_view_size: Option<u64>,
    // Older tt-metal flattened form of the DRAM views.
    #[serde(default)]
    pub dram_preferred_eth_endpoint: Option<Vec<RawCoord>>,
    #[serde(default)]
    pub dram_preferred_worker_endpoint: Option<Vec<RawCoord>>,
    #[serde(default)]
    pub dram_address_offsets: Option<Vec<u64>>,
    pub eth: Vec<RawCoord>,
    pub functional_workers: Vec<RawCoord>,
    #[serde(default)]
    pub harvested_workers: Option<Vec<RawCoord>>,
    pub router_only: Vec<RawCoord>,
    #[serde(default)]
    pub security: Option<Vec<RawCoord>>,
    #[serde(default)]
    pub l2cpu: Option<Vec<RawCoord>>,
    #[serde(default)]
    pub dispatch: Option<Vec<RawCoord>>,
    #[serde(default)]
    pub noc0_x_to_noc1_x: Option<Vec<u32>>,
    #[serde(default)]
    pub noc0_y_to_noc1_y: Option<Vec<u32>>,
    pub worker_l1_size: u64,
    pub dram_bank_size: u64,
    pub eth_l1_size: u64,
    pub arch_name: String,
    pub features: RawFeatures,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawGrid {
    pub x_size: u32,
    pub y_size: u32,
}

/// One entry of `dram`: a list of subchannel endpoints, or (flat form) a single endpoint.
#[derive(Debug)]
pub(crate) struct RawDramChannel(pub Vec<RawCoord>);

impl<'de> Deserialize<'de> for RawDramChannel {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawDramChannel;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a coordinate `X-Y` or a list of them")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(RawDramChannel(vec![v.to_string()]))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
                Ok(RawDramChannel(vec![v.to_string()]))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
                Ok(RawDramChannel(vec![v.to_string()]))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut v = Vec::new();
                while let Some(s) = seq.next_element::<String>()? {
                    v.push(s);
                }
                Ok(RawDramChannel(v))
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawDramView {
    pub channel: u32,
    pub eth_endpoint: RawEndpoint,
    pub worker_endpoint: RawEndpoint,
    pub address_offset: u64,
}

/// A DRAM view endpoint: one subchannel for both NoCs (Grayskull) or `[noc0, noc1]`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RawEndpoint(pub [u32; 2]);

impl<'de> Deserialize<'de> for RawEndpoint {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawEndpoint;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a subchannel index or a list `[noc0, noc1]` of two")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
                let v = u32::try_from(v).map_err(|_| E::custom("subchannel index too large"))?;
                Ok(RawEndpoint([v, v]))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
                let v = u32::try_from(v).map_err(|_| E::custom(format!("subchannel index {v} is negative")))?;
                Ok(RawEndpoint([v, v]))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let a: u32 = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(0, &self))?;
                let b: u32 = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(1, &self))?;
                if seq.next_element::<u32>()?.is_some() {
                    return Err(de::Error::invalid_length(3, &self));
                }
                Ok(RawEndpoint([a, b]))
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawFeatures {
    #[serde(default)]
    pub noc: Option<RawNocFeatures>,
    pub unpacker: RawUnpacker,
    pub math: RawMath,
    pub packer: RawVersion,
    pub overlay: RawVersion,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawNocFeatures {
    #[serde(default)]
    pub translation_id_enabled: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawUnpacker {
    pub version: u32,
    pub inline_srca_trans_without_srca_trans_instr: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawMath {
    pub dst_size_alignment: u32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawVersion {
    pub version: u32,
}

pub(crate) fn parse_soc(text: &str, file: &str) -> Result<RawSoc, SocError> {
    parse_yaml(text, file)
}

// ---------------------------------------------------------------------------------------------------------
// Core descriptor (tt-metal core_descriptors/*.yaml)
// ---------------------------------------------------------------------------------------------------------

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawCoreConfig {
    pub compute_with_storage_grid_range: RawRange,
    #[serde(default)]
    pub tg_compute_with_storage_grid_range: Option<RawRange>,
    #[serde(default)]
    pub storage_cores: Vec<[i32; 2]>,
    #[serde(default)]
    pub storage_core_bank_size: Option<u64>,
    #[serde(default)]
    pub l1_bank_size: Option<u64>,
    pub dispatch_cores: Vec<[i32; 2]>,
    #[serde(default)]
    pub tg_dispatch_cores: Option<Vec<[i32; 2]>>,
    #[serde(default)]
    pub dispatch_core_type: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawRange {
    pub start: [i32; 2],
    pub end: [i32; 2],
}

/// One configuration, with the key path it came from (`nebula_x1.1`, `unharvested.col.2`).
#[derive(Debug)]
pub(crate) struct RawCoreEntry {
    pub product: String,
    pub axis: Option<String>,
    pub num_cqs: u32,
    pub config: RawCoreConfig,
}

pub(crate) fn parse_core(text: &str, file: &str) -> Result<Vec<RawCoreEntry>, SocError> {
    check_shape(text, file)?;
    let doc: serde_yaml::Value = serde_yaml::from_str(text).map_err(|e| yaml_error(&e, file, ""))?;
    let top = match doc {
        // A SoC descriptor given where a core descriptor belongs.
        serde_yaml::Value::Mapping(m)
            if ["grid", "arch_name", "tensix", "dram"].iter().filter(|k| m.contains_key(**k)).count() >= 2 =>
        {
            return Err(SocError::new(file, "this is a SoC descriptor (it has `grid` and `arch_name`), not a core descriptor")
                .hint("this is a SoC descriptor, not a core descriptor (tt-metal's core_descriptors/*.yaml: products → command queues → core ranges)"));
        }
        serde_yaml::Value::Mapping(m) => m,
        serde_yaml::Value::Null => {
            return Err(SocError::new(file, "empty core descriptor")
                .hint("a core descriptor maps product names to command-queue counts to configurations"));
        }
        other => {
            return Err(SocError::new(file, "expected a mapping of product names").value(value_kind(&other)));
        }
    };
    let mut out = Vec::new();
    for (pk, pv) in top {
        let product = scalar_key(&pk, file, "")?;
        let pmap = as_mapping(pv, file, &product)?;
        for (k, v) in pmap {
            // Either `<num_cqs>: config` or `<axis>: { <num_cqs>: config }`.
            match &k {
                serde_yaml::Value::Number(_) => {
                    let cqs = cq_key(&k, file, &product)?;
                    let path = format!("{product}.{cqs}");
                    out.push(RawCoreEntry {
                        product: product.clone(),
                        axis: None,
                        num_cqs: cqs,
                        config: config(v, file, &path)?,
                    });
                }
                _ => {
                    let axis = scalar_key(&k, file, &product)?;
                    if axis != "row" && axis != "col" {
                        return Err(SocError::new(file, "expected a number of command queues or a dispatch axis")
                            .key(format!("{product}.{axis}"))
                            .value(&axis)
                            .hint("use `1`/`2` (command queues) or `row`/`col` (dispatch core axis)"));
                    }
                    let apath = format!("{product}.{axis}");
                    for (ck, cv) in as_mapping(v, file, &apath)? {
                        let cqs = cq_key(&ck, file, &apath)?;
                        let path = format!("{apath}.{cqs}");
                        out.push(RawCoreEntry {
                            product: product.clone(),
                            axis: Some(axis.clone()),
                            num_cqs: cqs,
                            config: config(cv, file, &path)?,
                        });
                    }
                }
            }
        }
    }
    Ok(out)
}

fn config(v: serde_yaml::Value, file: &str, path: &str) -> Result<RawCoreConfig, SocError> {
    serde_path_to_error::deserialize(v).map_err(|e| path_error(e, file, path))
}

fn value_kind(v: &serde_yaml::Value) -> &'static str {
    match v {
        serde_yaml::Value::Null => "nothing",
        serde_yaml::Value::Bool(_) => "a boolean",
        serde_yaml::Value::Number(_) => "a number",
        serde_yaml::Value::String(_) => "a string",
        serde_yaml::Value::Sequence(_) => "a list",
        serde_yaml::Value::Mapping(_) => "a mapping",
        serde_yaml::Value::Tagged(_) => "a tagged value",
    }
}

fn as_mapping(v: serde_yaml::Value, file: &str, path: &str) -> Result<serde_yaml::Mapping, SocError> {
    match v {
        serde_yaml::Value::Mapping(m) => Ok(m),
        other => Err(SocError::new(file, "expected a mapping").key(path).value(value_kind(&other))),
    }
}

fn scalar_key(k: &serde_yaml::Value, file: &str, path: &str) -> Result<String, SocError> {
    match k {
        serde_yaml::Value::String(s) => Ok(s.clone()),
        serde_yaml::Value::Number(n) => Ok(n.to_string()),
        other => Err(SocError::new(file, "expected a name as key").key(path).value(value_kind(other))),
    }
}

fn cq_key(k: &serde_yaml::Value, file: &str, path: &str) -> Result<u32, SocError> {
    let n = match k {
        serde_yaml::Value::Number(n) => n.as_u64(),
        _ => None,
    };
    match n {
        Some(n @ 1..=2) => Ok(n as u32),
        _ => Err(SocError::new(file, "expected the number of hardware command queues (1 or 2)")
            .key(path)
            .value(scalar_key(k, file, path).unwrap_or_else(|_| value_kind(k).to_string()))),
    }
}

// ---------------------------------------------------------------------------------------------------------
// Cluster descriptor (tt-umd ClusterDescriptor YAML; block or flow style, current or legacy keys)
// ---------------------------------------------------------------------------------------------------------

/// Chip ids are the YAML map keys; a `BTreeMap` keeps them in order (duplicates are a YAML error).
pub(crate) type ChipMap<T> = std::collections::BTreeMap<u32, T>;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawCluster {
    pub arch: ChipMap<String>,
    pub chips: ChipMap<Vec<i64>>,
    #[serde(default)]
    pub chip_unique_ids: Option<ChipMap<u64>>,
    pub ethernet_connections: Vec<Vec<RawLinkEnd>>,
    #[serde(default)]
    pub ethernet_connections_to_remote_devices: Option<Vec<Vec<RawLinkEnd>>>,
    pub chips_with_mmio: Vec<RawMmio>,
    #[serde(default)]
    pub io_device_type: Option<String>,
    pub harvesting: ChipMap<RawHarvesting>,
    #[serde(default)]
    pub chip_to_bus_id: Option<ChipMap<String>>,
    pub boards: Vec<Vec<RawBoardField>>,
    #[serde(default)]
    pub asic_locations: Option<ChipMap<u32>>,
    #[serde(default)]
    pub chip_pci_bdfs: Option<ChipMap<String>>,
    // Legacy keys (removed from the serializer in 2026; still read).
    #[serde(default)]
    pub chip_to_boardtype: Option<ChipMap<String>>,
    #[serde(default)]
    pub boardtype: Option<ChipMap<String>>,
}

/// One element of a connection entry: `{chip, chan}`, `{remote_chip_id, chan}` or `{routing_enabled}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawLinkEnd {
    #[serde(default)]
    pub chip: Option<u32>,
    #[serde(default)]
    pub chan: Option<u32>,
    #[serde(default)]
    pub remote_chip_id: Option<u64>,
    #[serde(default)]
    pub routing_enabled: Option<bool>,
}

/// One entry of `chips_with_mmio`: `{chip: device_index}` or a bare chip id.
#[derive(Debug)]
pub(crate) struct RawMmio {
    pub chip: u32,
    pub index: Option<u32>,
}

impl<'de> Deserialize<'de> for RawMmio {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawMmio;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a chip id or `chip_id: device_index`")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<RawMmio, E> {
                let chip = u32::try_from(v).map_err(|_| E::custom(format!("chip id {v} does not fit 32 bits")))?;
                Ok(RawMmio { chip, index: None })
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut m: A) -> Result<RawMmio, A::Error> {
                let (chip, index): (u32, u32) = m
                    .next_entry()?
                    .ok_or_else(|| de::Error::custom("expected `chip_id: device_index`, got an empty mapping"))?;
                if m.next_key::<u32>()?.is_some() {
                    return Err(de::Error::custom("expected one `chip_id: device_index` per list entry"));
                }
                Ok(RawMmio { chip, index: Some(index) })
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawHarvesting {
    pub noc_translation: bool,
    pub harvest_mask: u64,
    #[serde(default)]
    pub dram_harvesting_mask: Option<u64>,
    #[serde(default)]
    pub eth_harvesting_mask: Option<u64>,
    #[serde(default)]
    pub pcie_harvesting_mask: Option<u64>,
    #[serde(default)]
    pub l2cpu_harvesting_mask: Option<u64>,
}

/// One of the three one-key maps of a `boards` entry.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawBoardField {
    #[serde(default)]
    pub board_id: Option<u64>,
    #[serde(default)]
    pub board_type: Option<String>,
    #[serde(default)]
    pub chips: Option<Vec<u32>>,
}

/// Parse a cluster descriptor's raw shape.
pub(crate) fn parse_cluster(text: &str, file: &str) -> Result<RawCluster, SocError> {
    parse_yaml(text, file)
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
