//! Systems of many chips: tt-umd cluster descriptors (chips, their arch and harvesting, the Ethernet links
//! between channels, PCIe-attached chips, boards), read as they are, checked, and queried; the built-in
//! systems (`builtin.rs`); and how the chips sit in a 2-D mesh (`mesh.rs`).

mod builtin;
mod mesh_position;
mod validate;

pub use builtin::{BUILTIN_SYSTEMS, builtin_system};
pub use mesh_position::{MeshEmbedding, MeshOrigin};

use crate::arch::Arch;
use crate::coords::Noc0Coord;
use crate::error::SocError;
use std::path::Path;

/// A chip's id in its cluster descriptor.
pub type ChipId = u32;

/// One end of an Ethernet link: a chip and one of its logical Ethernet channels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EthEnd {
    /// The chip.
    pub chip: ChipId,
    /// The logical channel on that chip.
    pub channel: u32,
}

impl std::fmt::Display for EthEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "chip {} ch {}", self.chip, self.channel)
    }
}

/// A bidirectional Ethernet link between two chips of the cluster.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EthLink {
    /// The end listed first.
    pub a: EthEnd,
    /// The end listed second.
    pub b: EthEnd,
    /// `routing_enabled` when the file gives it.
    pub routing_enabled: Option<bool>,
}

impl EthLink {
    /// The link with its ends ordered (lower chip, then lower channel, first): how two descriptions of the
    /// same wiring compare.
    pub fn normalised(&self) -> (EthEnd, EthEnd) {
        if self.a <= self.b { (self.a, self.b) } else { (self.b, self.a) }
    }

    /// `(near, far)` when one end satisfies `is_near` (the first end checked first).
    fn other_end(&self, is_near: impl Fn(EthEnd) -> bool) -> Option<(EthEnd, EthEnd)> {
        if is_near(self.a) {
            Some((self.a, self.b))
        } else if is_near(self.b) {
            Some((self.b, self.a))
        } else {
            None
        }
    }
}

/// A link leaving the cluster (to a chip of another host).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RemoteLink {
    /// The local end.
    pub local: EthEnd,
    /// The remote chip's unique id.
    pub remote_unique_id: u64,
    /// The remote channel.
    pub remote_channel: u32,
}

/// The board types tt-umd knows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardType {
    /// A board type tensim recognises (`n150`, `n300`, `p100`, `p150`, `p300`, `ubb`, …).
    Known(&'static str),
    /// An unknown type (tt-umd warns and calls it UNKNOWN).
    Unknown(String),
}

impl BoardType {
    const NAMES: [&'static str; 9] =
        ["n150", "n300", "p100", "p150", "p300", "ubb", "ubb_blackhole", "ubb_wormhole", "quasar"];

    fn parse(s: &str) -> BoardType {
        match Self::NAMES.iter().find(|n| n.eq_ignore_ascii_case(s)) {
            Some(n) => BoardType::Known(n),
            None => BoardType::Unknown(s.to_string()),
        }
    }

    /// The name as tt-umd writes it.
    pub fn name(&self) -> &str {
        match self {
            BoardType::Known(n) => n,
            BoardType::Unknown(s) => s,
        }
    }
}

/// A board (card or tray) and the chips on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    /// The board id.
    pub id: u64,
    /// Its type.
    pub board_type: BoardType,
    /// Its chips, in file order.
    pub chips: Vec<ChipId>,
}

/// The harvesting of one chip.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ChipHarvesting {
    /// Whether NoC coordinate translation is on.
    pub noc_translation: bool,
    /// Harvested Tensix rows (Wormhole) or columns (Blackhole).
    pub tensix_mask: u32,
    /// Harvested DRAM channels.
    pub dram_mask: u32,
    /// Harvested Ethernet channels (physical numbering).
    pub eth_mask: u32,
    /// Harvested PCIe cores.
    pub pcie_mask: u32,
    /// Harvested L2CPU cores.
    pub l2cpu_mask: u32,
}

/// One chip of a cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterChip {
    /// Its id.
    pub id: ChipId,
    /// Its architecture.
    pub arch: Arch,
    /// Ethernet coordinates `[x, y, rack, shelf]` when the file gives them (Wormhole boards).
    pub eth_coord: Option<[i64; 4]>,
    /// The unique id (`chip << 32` when the file has none, as tt-umd does).
    pub unique_id: u64,
    /// Host PCIe device index when the chip is PCIe-attached (MMIO).
    pub mmio: Option<u32>,
    /// Harvesting.
    pub harvesting: ChipHarvesting,
    /// The board the chip is on (index into [`ClusterDescriptor::boards`]).
    pub board: Option<usize>,
    /// Position on its board or tray.
    pub asic_location: Option<u32>,
    /// PCI bus id (`0x..`) when given.
    pub bus_id: Option<String>,
}

/// A validated cluster descriptor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterDescriptor {
    /// Where it came from (a file name or `built-in NAME`).
    pub source: String,
    /// The chips, by increasing id.
    pub chips: Vec<ClusterChip>,
    /// Links between chips of the cluster, in file order (a repeated pair once).
    pub links: Vec<EthLink>,
    /// Links leaving the cluster.
    pub remote_links: Vec<RemoteLink>,
    /// Boards.
    pub boards: Vec<Board>,
    /// `PCIe` or `JTAG` when given.
    pub io_device_type: Option<String>,
}

/// Number of Ethernet channels a chip of `arch` has before harvesting (Wormhole 16, Blackhole 14).
pub fn eth_channels(arch: Arch) -> u32 {
    match arch {
        Arch::WormholeB0 => 16,
        Arch::Blackhole => 14,
        Arch::Grayskull => 0,
    }
}

impl ClusterDescriptor {
    /// Read and validate a cluster descriptor file.
    pub fn load(path: &Path) -> Result<ClusterDescriptor, SocError> {
        let name = path.display().to_string();
        let text = crate::input::read_text(path, "cluster descriptor").map_err(|e| {
            SocError::new(&name, e.reason).hint("pass an existing cluster descriptor YAML, or a built-in system name")
        })?;
        ClusterDescriptor::from_yaml_str(&text, &name)
    }

    /// Parse and validate cluster descriptor YAML; `file` names it in errors.
    pub fn from_yaml_str(text: &str, file: &str) -> Result<ClusterDescriptor, SocError> {
        let raw = crate::yaml::parse_cluster(text, file)?;
        validate::validate(raw, file)
    }

    /// The chip with id `id`.
    pub fn chip(&self, id: ChipId) -> Option<&ClusterChip> {
        self.chips.binary_search_by_key(&id, |c| c.id).ok().map(|i| &self.chips[i])
    }

    /// The architecture of the cluster when every chip has the same one.
    pub fn arch(&self) -> Option<Arch> {
        let first = self.chips.first()?.arch;
        self.chips.iter().all(|c| c.arch == first).then_some(first)
    }

    /// Usable Ethernet channels of `chip` (its channels less the harvested ones).
    pub fn num_channels(&self, chip: &ClusterChip) -> u32 {
        eth_channels(chip.arch) - chip.harvesting.eth_mask.count_ones()
    }

    /// The other end of the link on `end`, if that channel is linked inside the cluster.
    pub fn peer(&self, end: EthEnd) -> Option<EthEnd> {
        self.links.iter().find_map(|l| l.other_end(|e| e == end).map(|(_, far)| far))
    }

    /// Every link of `chip` as (its end, the far end), in link order.
    fn links_of(&self, chip: ChipId) -> impl Iterator<Item = (EthEnd, EthEnd)> + '_ {
        self.links.iter().filter_map(move |l| l.other_end(|e| e.chip == chip))
    }

    /// The channel pairs `(channel on a, channel on b)` linking chips `a` and `b`, by a's channel.
    pub fn channels_between(&self, a: ChipId, b: ChipId) -> Vec<(u32, u32)> {
        let mut out: Vec<(u32, u32)> =
            self.links_of(a).filter(|(_, far)| far.chip == b).map(|(near, far)| (near.channel, far.channel)).collect();
        out.sort_unstable();
        out
    }

    /// The chips linked to `chip`, by id.
    pub fn neighbours(&self, chip: ChipId) -> Vec<ChipId> {
        let mut out: Vec<ChipId> = self.links_of(chip).map(|(_, far)| far.chip).collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The NoC0 coordinate of logical Ethernet channel `channel` of `chip`: on Wormhole entry `channel` of
    /// the SoC descriptor's `eth` list; on Blackhole the `channel`-th entry not harvested by the chip's
    /// Ethernet mask. `None` when there is no such channel.
    pub fn eth_core(&self, chip: &ClusterChip, channel: u32) -> Option<Noc0Coord> {
        let soc = crate::builtin::builtin_soc(chip.arch);
        let physical: Vec<usize> =
            (0..soc.eth.len()).filter(|&p| p >= 32 || chip.harvesting.eth_mask & (1 << p) == 0).collect();
        physical.get(channel as usize).map(|&p| soc.eth[p])
    }

    /// How the chips sit in a 2-D mesh (see [`MeshEmbedding::derive`]).
    pub fn mesh(&self) -> MeshEmbedding {
        MeshEmbedding::derive(self)
    }
}

#[cfg(test)]
mod tests;
