//! tt-metal core descriptors: per product (harvesting) and command-queue count, which logical Tensix cores
//! compute, which are storage-only and which run dispatch. Both file layouts are read:
//! `product → num_cqs → config` and `product → dispatch axis → num_cqs → config`.

use crate::coords::RelativeCoord;
use crate::error::SocError;
use crate::yaml::{self, RawCoreConfig, RawRange};
use serde::Serialize;
use std::fmt;
use std::path::Path;

/// Along which axis dispatch cores are reserved (Blackhole files are keyed by it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DispatchAxis {
    /// A row of dispatch cores.
    Row,
    /// A column of dispatch cores.
    Col,
}

impl DispatchAxis {
    /// Parse `row` / `col`.
    pub fn parse(s: &str) -> Option<DispatchAxis> {
        match s {
            "row" => Some(DispatchAxis::Row),
            "col" => Some(DispatchAxis::Col),
            _ => None,
        }
    }
}

impl fmt::Display for DispatchAxis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DispatchAxis::Row => "row",
            DispatchAxis::Col => "col",
        })
    }
}

/// Which core type runs fast-dispatch kernels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DispatchCoreType {
    /// Tensix workers (the default when the key is absent).
    Tensix,
    /// Idle Ethernet cores.
    Ethernet,
}

/// An inclusive rectangle of (possibly relative) logical coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct RelativeRange {
    /// First corner.
    pub start: RelativeCoord,
    /// Last corner (inclusive).
    pub end: RelativeCoord,
}

/// One configuration of a core descriptor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CoreConfig {
    /// `compute_with_storage_grid_range`.
    pub compute_grid: RelativeRange,
    /// `tg_compute_with_storage_grid_range` (Galaxy gateways), when present.
    pub tg_compute_grid: Option<RelativeRange>,
    /// Storage-only cores.
    pub storage_cores: Vec<RelativeCoord>,
    /// L1 bank size of storage cores, bytes (`storage_core_bank_size`, older `l1_bank_size`).
    pub storage_core_bank_size: Option<u64>,
    /// Dispatch cores (Tensix logical coordinates, or Ethernet indices when `dispatch_core_type` is ethernet).
    pub dispatch_cores: Vec<RelativeCoord>,
    /// `tg_dispatch_cores`, when present.
    pub tg_dispatch_cores: Option<Vec<RelativeCoord>>,
    /// Which cores run dispatch.
    pub dispatch_core_type: DispatchCoreType,
}

/// One `(product, axis, command queues)` entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CoreConfigEntry {
    /// Product name (`nebula_x1`, `unharvested`, `E150`…).
    pub product: String,
    /// Dispatch axis for files keyed by it.
    pub axis: Option<DispatchAxis>,
    /// Number of hardware command queues.
    pub num_cqs: u32,
    /// The configuration.
    pub config: CoreConfig,
}

/// A validated core descriptor: its entries sorted by (product, axis, command queues).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CoreDescriptor {
    /// All configurations.
    pub entries: Vec<CoreConfigEntry>,
}

fn rel(v: [i32; 2]) -> RelativeCoord {
    RelativeCoord::new(v[0], v[1])
}

fn range(r: &RawRange) -> RelativeRange {
    RelativeRange { start: rel(r.start), end: rel(r.end) }
}

impl CoreDescriptor {
    /// Read and validate a core descriptor file.
    pub fn load(path: &Path) -> Result<CoreDescriptor, SocError> {
        let name = path.display().to_string();
        let text = crate::input::read_text(path, "core descriptor").map_err(|e| {
            SocError::new(&name, e.reason)
                .hint("pass an existing core descriptor file, or none to use the built-in one")
        })?;
        CoreDescriptor::from_yaml_str(&text, &name)
    }

    /// Parse and validate core descriptor YAML; `file` names it in errors.
    pub fn from_yaml_str(text: &str, file: &str) -> Result<CoreDescriptor, SocError> {
        let raw = yaml::parse_core(text, file)?;
        if raw.is_empty() {
            return Err(SocError::new(file, "no configurations").hint("list at least one product"));
        }
        let mut entries = Vec::with_capacity(raw.len());
        for e in raw {
            let path = match &e.axis {
                Some(a) => format!("{}.{}.{}", e.product, a, e.num_cqs),
                None => format!("{}.{}", e.product, e.num_cqs),
            };
            let config = validate_config(&e.config, file, &path)?;
            let axis = e.axis.as_deref().and_then(DispatchAxis::parse);
            entries.push(CoreConfigEntry { product: e.product, axis, num_cqs: e.num_cqs, config });
        }
        entries.sort_by(|a, b| (&a.product, a.axis, a.num_cqs).cmp(&(&b.product, b.axis, b.num_cqs)));
        Ok(CoreDescriptor { entries })
    }

    /// Product names in this descriptor, sorted, without duplicates.
    pub fn products(&self) -> Vec<&str> {
        let mut v: Vec<&str> = self.entries.iter().map(|e| e.product.as_str()).collect();
        v.dedup();
        v
    }

    /// Select the configuration for `product`, `num_cqs` and (for axis-keyed files) `axis`.
    /// With `axis = None` on an axis-keyed file, the only axis present is used.
    pub fn select(&self, product: &str, axis: Option<DispatchAxis>, num_cqs: u32) -> Result<&CoreConfigEntry, String> {
        let of_product: Vec<&CoreConfigEntry> = self.entries.iter().filter(|e| e.product == product).collect();
        if of_product.is_empty() {
            return Err(format!(
                "no configuration for product `{product}` (the file has: {})",
                self.products().join(", ")
            ));
        }
        let mut axes: Vec<Option<DispatchAxis>> = of_product.iter().map(|e| e.axis).collect();
        axes.dedup();
        let axis = match axis {
            Some(a) if axes.iter().any(|x| x.is_none()) => {
                return Err(format!("product `{product}` is not keyed by dispatch axis; drop the `{a}` axis"));
            }
            Some(a) => Some(a),
            None if axes.len() == 1 => axes[0],
            None => {
                return Err(format!("product `{product}` has several dispatch axes; choose one (row or col)"));
            }
        };
        of_product.into_iter().find(|e| e.axis == axis && e.num_cqs == num_cqs).ok_or_else(|| {
            format!(
                "no configuration for product `{product}`{} with {num_cqs} command queue(s)",
                axis.map(|a| format!(", axis `{a}`")).unwrap_or_default()
            )
        })
    }
}

fn validate_config(c: &RawCoreConfig, file: &str, path: &str) -> Result<CoreConfig, SocError> {
    let dispatch_core_type = match c.dispatch_core_type.as_deref() {
        None | Some("tensix") => DispatchCoreType::Tensix,
        Some("ethernet") => DispatchCoreType::Ethernet,
        Some(other) => {
            return Err(SocError::new(file, "unknown dispatch core type")
                .key(format!("{path}.dispatch_core_type"))
                .value(other)
                .hint("use \"tensix\" or \"ethernet\""));
        }
    };
    let bank = c.storage_core_bank_size.or(c.l1_bank_size);
    if bank == Some(0) {
        return Err(SocError::new(file, "size must not be zero")
            .key(format!("{path}.storage_core_bank_size"))
            .value(0));
    }
    let r = &c.compute_with_storage_grid_range;
    for (i, (s, e)) in r.start.iter().zip(r.end.iter()).enumerate() {
        if *s >= 0 && *e >= 0 && s > e {
            return Err(SocError::new(file, "range start is past its end")
                .key(format!("{path}.compute_with_storage_grid_range.{}", ["start[0]", "start[1]"][i]))
                .value(format!("{:?} .. {:?}", r.start, r.end)));
        }
    }
    Ok(CoreConfig {
        compute_grid: range(r),
        tg_compute_grid: c.tg_compute_with_storage_grid_range.as_ref().map(range),
        storage_cores: c.storage_cores.iter().copied().map(rel).collect(),
        storage_core_bank_size: bank,
        dispatch_cores: c.dispatch_cores.iter().copied().map(rel).collect(),
        tg_dispatch_cores: c.tg_dispatch_cores.as_ref().map(|v| v.iter().copied().map(rel).collect()),
        dispatch_core_type,
    })
}
