//! The chip architectures tensim models and the per-architecture facts the descriptors do not carry.

use serde::Serialize;
use std::fmt;

/// A Tenstorrent chip architecture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Arch {
    /// Grayskull (e75/e150).
    Grayskull,
    /// Wormhole B0 (n150/n300/Galaxy).
    WormholeB0,
    /// Blackhole (p100/p150).
    Blackhole,
}

/// Whether harvesting removes Tensix rows or columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HarvestAxis {
    /// Whole Tensix rows are harvested (Grayskull, Wormhole).
    Rows,
    /// Whole Tensix columns are harvested (Blackhole).
    Columns,
}

impl Arch {
    /// All architectures, in the order tensim supports them.
    pub const ALL: [Arch; 3] = [Arch::WormholeB0, Arch::Blackhole, Arch::Grayskull];

    /// Parse the `arch_name` key of a SoC descriptor (`WORMHOLE_B0`, `wormhole_b0`, `BLACKHOLE`, `GRAYSKULL`).
    pub fn from_arch_name(name: &str) -> Option<Arch> {
        match name.to_ascii_uppercase().as_str() {
            "GRAYSKULL" => Some(Arch::Grayskull),
            "WORMHOLE_B0" | "WORMHOLE" => Some(Arch::WormholeB0),
            "BLACKHOLE" => Some(Arch::Blackhole),
            _ => None,
        }
    }

    /// The lower-case name used on the command line and in file names (`wormhole_b0`).
    pub fn name(self) -> &'static str {
        match self {
            Arch::Grayskull => "grayskull",
            Arch::WormholeB0 => "wormhole_b0",
            Arch::Blackhole => "blackhole",
        }
    }

    /// The `arch_name` value the SoC descriptor files use.
    pub fn descriptor_name(self) -> &'static str {
        match self {
            Arch::Grayskull => "GRAYSKULL",
            Arch::WormholeB0 => "WORMHOLE_B0",
            Arch::Blackhole => "BLACKHOLE",
        }
    }

    /// Parse a command-line arch name.
    pub fn from_cli_name(name: &str) -> Option<Arch> {
        Arch::from_arch_name(name)
    }

    /// What harvesting removes on this architecture.
    pub fn harvest_axis(self) -> HarvestAxis {
        match self {
            Arch::Blackhole => HarvestAxis::Columns,
            Arch::Grayskull | Arch::WormholeB0 => HarvestAxis::Rows,
        }
    }

    /// tt-metal's product name for a number of harvested rows/columns
    /// (`tt_metal/llrt/core_descriptor.hpp::get_product_name`).
    pub fn product_name(self, harvested: u32) -> Option<&'static str> {
        let table: &[(u32, &str)] = match self {
            Arch::Grayskull => &[(0, "E150"), (2, "E75")],
            Arch::WormholeB0 => &[(0, "galaxy"), (1, "nebula_x1"), (2, "nebula_x2")],
            Arch::Blackhole => &[(0, "unharvested"), (1, "1xharvested"), (2, "2xharvested")],
        };
        table.iter().find(|(n, _)| *n == harvested).map(|(_, p)| *p)
    }

    /// Translated ("virtual") coordinate of the first Tensix worker, when the chip translates coordinates
    /// (`VIRTUAL_TENSIX_START_X/Y` in noc_parameters.h: WH (18,18), BH (1,2); Grayskull has none).
    pub fn virtual_tensix_start(self) -> Option<(u32, u32)> {
        match self {
            Arch::Grayskull => None,
            Arch::WormholeB0 => Some((18, 18)),
            Arch::Blackhole => Some((1, 2)),
        }
    }
}

impl fmt::Display for Arch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
