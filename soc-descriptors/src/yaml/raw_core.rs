//! Raw serde shapes of the core descriptor (tt-metal core_descriptors/*.yaml).

use super::*;

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
