//! The validated SoC descriptor: the tile at every NoC coordinate, sizes, DRAM channels and banks, NoC1 mirror.

use crate::arch::Arch;
use crate::coords::{GridSize, Noc0Coord, Noc1Coord, NocId};
use crate::error::SocError;
use crate::yaml::{self, RawCoord, RawSoc};
use serde::Serialize;
use std::path::Path;

/// The largest L1 (worker or Ethernet) a descriptor may give: 4 GiB, what a kernel's 32-bit L1 address reaches.
pub const MAX_L1_BYTES: u64 = 1 << 32;
/// The largest DRAM bank or view a descriptor may give: 64 GiB, what 36 bits of NoC local address reach.
pub const MAX_DRAM_BANK_BYTES: u64 = 1 << 36;

/// What sits at one NoC grid position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TileKind {
    /// A position not listed anywhere (no tile on shipped chips).
    Empty,
    /// A Tensix worker.
    Tensix,
    /// A DRAM endpoint: `channel` indexes `dram`, `subchannel` the endpoint inside it.
    Dram {
        /// DRAM channel (index into the descriptor's `dram` list).
        channel: u32,
        /// Endpoint inside the channel.
        subchannel: u32,
    },
    /// An Ethernet tile; `channel` is its position in the `eth` list.
    Eth {
        /// Ethernet channel number.
        channel: u32,
    },
    /// A PCIe tile.
    Pcie,
    /// The ARC management CPU.
    Arc,
    /// A router with no useful endpoint.
    RouterOnly,
    /// Blackhole security tile.
    Security,
    /// Blackhole L2CPU (SiFive X280) cluster tile.
    L2Cpu,
    /// Dispatch-engine tile (Quasar).
    Dispatch,
}

impl TileKind {
    /// One letter for grid maps.
    pub fn letter(self) -> char {
        match self {
            TileKind::Empty => '.',
            TileKind::Tensix => 'T',
            TileKind::Dram { .. } => 'D',
            TileKind::Eth { .. } => 'E',
            TileKind::Pcie => 'P',
            TileKind::Arc => 'A',
            TileKind::RouterOnly => 'r',
            TileKind::Security => 'S',
            TileKind::L2Cpu => 'L',
            TileKind::Dispatch => 'X',
        }
    }

    /// A short name for summaries.
    pub fn name(self) -> &'static str {
        match self {
            TileKind::Empty => "empty",
            TileKind::Tensix => "tensix",
            TileKind::Dram { .. } => "dram",
            TileKind::Eth { .. } => "eth",
            TileKind::Pcie => "pcie",
            TileKind::Arc => "arc",
            TileKind::RouterOnly => "router_only",
            TileKind::Security => "security",
            TileKind::L2Cpu => "l2cpu",
            TileKind::Dispatch => "dispatch",
        }
    }
}

/// One DRAM channel: the NoC endpoints that all expose the same address space.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DramChannel {
    /// The subchannel endpoints, in descriptor order.
    pub endpoints: Vec<Noc0Coord>,
}

/// One DRAM bank as tt-metal's allocator sees it (one per `dram_views` entry).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct DramBank {
    /// The channel (index into [`SocDescriptor::dram_channels`]).
    pub channel: u32,
    /// Byte offset of this bank inside its channel.
    pub address_offset: u64,
    /// Size of the bank in bytes.
    pub size_bytes: u64,
    /// Subchannel workers use, per NoC (`[noc0, noc1]`).
    pub worker_endpoint: [u32; 2],
    /// Subchannel Ethernet cores use, per NoC.
    pub eth_endpoint: [u32; 2],
}

/// The `features` block of a SoC descriptor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Features {
    /// `features.noc.translation_id_enabled` when present.
    pub noc_translation_id_enabled: Option<bool>,
    /// `features.unpacker.version`.
    pub unpacker_version: u32,
    /// `features.unpacker.inline_srca_trans_without_srca_trans_instr`.
    pub unpacker_inline_srca_trans: bool,
    /// `features.math.dst_size_alignment` (bytes).
    pub math_dst_size_alignment: u32,
    /// `features.packer.version`.
    pub packer_version: u32,
    /// `features.overlay.version`.
    pub overlay_version: u32,
}

/// A validated SoC descriptor: the physical chip, before harvesting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SocDescriptor {
    /// The architecture.
    pub arch: Arch,
    /// The full NoC grid (every router position).
    pub grid: GridSize,
    /// Tile kind at every position, row-major (`y * grid.x + x`).
    pub(crate) tiles: Vec<TileKind>,
    /// Tensix workers of the unharvested die, sorted row-major.
    pub workers: Vec<Noc0Coord>,
    /// Ethernet tiles in channel order.
    pub eth: Vec<Noc0Coord>,
    /// PCIe tiles in descriptor order.
    pub pcie: Vec<Noc0Coord>,
    /// ARC tiles in descriptor order.
    pub arc: Vec<Noc0Coord>,
    /// DRAM channels.
    pub dram_channels: Vec<DramChannel>,
    /// DRAM banks (tt-metal's allocator view).
    pub dram_banks: Vec<DramBank>,
    /// Usable L1 per Tensix worker, bytes.
    pub worker_l1_size: u64,
    /// L1 per Ethernet tile, bytes.
    pub eth_l1_size: u64,
    /// Size of each DRAM channel, bytes (`dram_bank_size` in the file).
    pub dram_channel_size: u64,
    /// NoC0 x → NoC1 x.
    pub(crate) noc1_x: Vec<u32>,
    /// NoC0 y → NoC1 y.
    pub(crate) noc1_y: Vec<u32>,
    /// The features block.
    pub features: Features,
}

impl SocDescriptor {
    /// Read and validate a SoC descriptor file.
    pub fn load(path: &Path) -> Result<SocDescriptor, SocError> {
        let name = path.display().to_string();
        let text = crate::input::read_text(path, "SoC descriptor").map_err(|e| {
            SocError::new(&name, e.reason)
                .hint("pass an existing SoC descriptor file, or name an arch for a built-in description")
        })?;
        SocDescriptor::from_yaml_str(&text, &name)
    }

    /// Parse and validate SoC descriptor YAML; `file` names it in errors.
    pub fn from_yaml_str(text: &str, file: &str) -> Result<SocDescriptor, SocError> {
        let raw = yaml::parse_soc(text, file)?;
        validate(raw, file)
    }

    /// The tile at `c` (`Empty` outside the grid).
    pub fn tile(&self, c: Noc0Coord) -> TileKind {
        if c.x >= self.grid.x || c.y >= self.grid.y {
            return TileKind::Empty;
        }
        self.tiles[(c.y * self.grid.x + c.x) as usize]
    }

    /// Whether `c` lies inside the NoC grid.
    pub fn contains(&self, c: Noc0Coord) -> bool {
        c.x < self.grid.x && c.y < self.grid.y
    }

    /// All positions with their tile kinds, row-major.
    pub fn tiles(&self) -> impl Iterator<Item = (Noc0Coord, TileKind)> + '_ {
        let w = self.grid.x;
        self.tiles.iter().enumerate().map(move |(i, t)| (Noc0Coord::new(i as u32 % w, i as u32 / w), *t))
    }

    /// Number of tiles of each kind name (`tensix`, `dram`, …), in a fixed order, omitting zero counts.
    pub fn counts_by_kind(&self) -> Vec<(&'static str, usize)> {
        let order = ["tensix", "dram", "eth", "pcie", "arc", "router_only", "security", "l2cpu", "dispatch", "empty"];
        order
            .iter()
            .map(|n| (*n, self.tiles.iter().filter(|t| t.name() == *n).count()))
            .filter(|(_, c)| *c > 0)
            .collect()
    }

    /// The same tile in NoC1 coordinates.
    pub fn noc0_to_noc1(&self, c: Noc0Coord) -> Noc1Coord {
        Noc1Coord::new(self.noc1_x[c.x as usize], self.noc1_y[c.y as usize])
    }

    /// The same tile in NoC0 coordinates.
    pub fn noc1_to_noc0(&self, c: Noc1Coord) -> Noc0Coord {
        let x = self.noc1_x.iter().position(|&v| v == c.x).unwrap_or(c.x as usize) as u32;
        let y = self.noc1_y.iter().position(|&v| v == c.y).unwrap_or(c.y as usize) as u32;
        Noc0Coord::new(x, y)
    }

    /// Distinct NoC0 columns holding Tensix workers, ascending.
    pub fn tensix_columns(&self) -> Vec<u32> {
        let mut v: Vec<u32> = self.workers.iter().map(|c| c.x).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Distinct NoC0 rows holding Tensix workers, ascending.
    pub fn tensix_rows(&self) -> Vec<u32> {
        let mut v: Vec<u32> = self.workers.iter().map(|c| c.y).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The NoC0 endpoint workers use to reach DRAM bank `bank` on `noc`.
    pub fn dram_bank_worker_endpoint(&self, bank: usize, noc: NocId) -> Noc0Coord {
        let b = &self.dram_banks[bank];
        self.dram_channels[b.channel as usize].endpoints[b.worker_endpoint[noc.index()] as usize]
    }

    /// The NoC0 endpoint Ethernet cores use to reach DRAM bank `bank` on `noc`.
    pub fn dram_bank_eth_endpoint(&self, bank: usize, noc: NocId) -> Noc0Coord {
        let b = &self.dram_banks[bank];
        self.dram_channels[b.channel as usize].endpoints[b.eth_endpoint[noc.index()] as usize]
    }

    /// Total DRAM in bytes (channels × channel size).
    pub fn dram_total_bytes(&self) -> u64 {
        self.dram_channels.len() as u64 * self.dram_channel_size
    }
}

/// Parse a coordinate string `X-Y` (split at the first `-`, both halves whole numbers).
pub(crate) fn parse_coord(s: &str) -> Option<Noc0Coord> {
    let s = s.trim();
    let (a, b) = s.split_once('-')?;
    let ok = |t: &str| !t.is_empty() && t.len() <= 6 && t.bytes().all(|c| c.is_ascii_digit());
    if !ok(a) || !ok(b) {
        return None;
    }
    Some(Noc0Coord::new(a.parse().ok()?, b.parse().ok()?))
}

struct Builder<'a> {
    file: &'a str,
    grid: GridSize,
    tiles: Vec<Option<(TileKind, String)>>,
}

impl<'a> Builder<'a> {
    fn coord(&self, raw: &RawCoord, key: &str) -> Result<Noc0Coord, SocError> {
        let c = parse_coord(raw).ok_or_else(|| {
            SocError::new(self.file, "malformed coordinate")
                .key(key)
                .value(raw)
                .hint("write NoC0 coordinates as `X-Y`, e.g. `1-1`")
        })?;
        if c.x >= self.grid.x || c.y >= self.grid.y {
            return Err(SocError::new(self.file, format!("coordinate outside the {} NoC grid", self.grid))
                .key(key)
                .value(raw)
                .hint(format!(
                    "x must be below grid.x_size = {} and y below grid.y_size = {}",
                    self.grid.x, self.grid.y
                )));
        }
        Ok(c)
    }

    fn place(&mut self, c: Noc0Coord, kind: TileKind, key: &str, raw: &str) -> Result<(), SocError> {
        let idx = (c.y * self.grid.x + c.x) as usize;
        if let Some((_, first)) = &self.tiles[idx] {
            return Err(SocError::new(self.file, format!("tile {raw} is listed twice: already at `{first}`"))
                .key(key)
                .value(raw)
                .hint("every NoC position has exactly one role; remove one of the two entries"));
        }
        self.tiles[idx] = Some((kind, key.to_string()));
        Ok(())
    }

    fn list(&mut self, raws: &[RawCoord], name: &str, kind: TileKind) -> Result<Vec<Noc0Coord>, SocError> {
        let mut out = Vec::with_capacity(raws.len());
        for (i, raw) in raws.iter().enumerate() {
            let key = format!("{name}[{i}]");
            let c = self.coord(raw, &key)?;
            self.place(c, kind, &key, raw)?;
            out.push(c);
        }
        Ok(out)
    }
}

fn mirror_table(given: Option<Vec<u32>>, size: u32, key: &str, file: &str) -> Result<Vec<u32>, SocError> {
    let Some(t) = given else {
        return Ok((0..size).rev().collect());
    };
    if t.len() != size as usize {
        return Err(SocError::new(file, format!("table has {} entries but the grid has {size}", t.len()))
            .key(key)
            .hint("give one NoC1 coordinate per NoC0 coordinate"));
    }
    let mut seen = vec![false; size as usize];
    for (i, &v) in t.iter().enumerate() {
        if v >= size || seen[v as usize] {
            return Err(SocError::new(file, "not a permutation of the grid coordinates")
                .key(format!("{key}[{i}]"))
                .value(v));
        }
        seen[v as usize] = true;
    }
    Ok(t)
}

fn validate(raw: RawSoc, file: &str) -> Result<SocDescriptor, SocError> {
    let arch = Arch::from_arch_name(&raw.arch_name).ok_or_else(|| {
        SocError::new(file, "unsupported architecture")
            .key("arch_name")
            .value(&raw.arch_name)
            .hint("tensim models GRAYSKULL, WORMHOLE_B0 and BLACKHOLE")
    })?;
    for (key, v) in [("grid.x_size", raw.grid.x_size), ("grid.y_size", raw.grid.y_size)] {
        if v == 0 || v > 64 {
            return Err(SocError::new(file, "grid dimension must be between 1 and 64 (6-bit NoC node ids)")
                .key(key)
                .value(v));
        }
    }
    let grid = GridSize::new(raw.grid.x_size, raw.grid.y_size);
    let mut b = Builder { file, grid, tiles: vec![None; grid.count()] };

    // DRAM channels.
    if raw.dram.is_empty() {
        return Err(SocError::new(file, "no DRAM channels").key("dram").hint("list at least one DRAM endpoint"));
    }
    let mut dram_channels = Vec::with_capacity(raw.dram.len());
    for (ch, entry) in raw.dram.iter().enumerate() {
        if entry.0.is_empty() {
            return Err(SocError::new(file, "DRAM channel has no endpoints")
                .key(format!("dram[{ch}]"))
                .hint("each channel lists at least one `X-Y` endpoint"));
        }
        let mut endpoints = Vec::with_capacity(entry.0.len());
        for (sub, r) in entry.0.iter().enumerate() {
            let key = format!("dram[{ch}][{sub}]");
            let c = b.coord(r, &key)?;
            b.place(c, TileKind::Dram { channel: ch as u32, subchannel: sub as u32 }, &key, r)?;
            endpoints.push(c);
        }
        dram_channels.push(DramChannel { endpoints });
    }

    let arc = b.list(&raw.arc, "arc", TileKind::Arc)?;
    let pcie = b.list(&raw.pcie, "pcie", TileKind::Pcie)?;
    let mut eth = Vec::with_capacity(raw.eth.len());
    for (i, r) in raw.eth.iter().enumerate() {
        let key = format!("eth[{i}]");
        let c = b.coord(r, &key)?;
        b.place(c, TileKind::Eth { channel: i as u32 }, &key, r)?;
        eth.push(c);
    }
    if raw.functional_workers.is_empty() {
        return Err(SocError::new(file, "empty worker list")
            .key("functional_workers")
            .hint("list the Tensix worker tiles of the unharvested die as `X-Y` coordinates"));
    }
    let mut workers = b.list(&raw.functional_workers, "functional_workers", TileKind::Tensix)?;
    workers.sort();
    if let Some(h) = &raw.harvested_workers
        && let Some(first) = h.first()
    {
        return Err(SocError::new(file, "harvested_workers is not supported in the file")
            .key("harvested_workers[0]")
            .value(first)
            .hint("keep the file unharvested (`harvested_workers: []`) and give the harvesting mask separately"));
    }
    b.list(&raw.router_only, "router_only", TileKind::RouterOnly)?;
    if let Some(l) = &raw.security {
        b.list(l, "security", TileKind::Security)?;
    }
    if let Some(l) = &raw.l2cpu {
        b.list(l, "l2cpu", TileKind::L2Cpu)?;
    }
    if let Some(l) = &raw.dispatch {
        b.list(l, "dispatch", TileKind::Dispatch)?;
    }

    for (key, v) in [("worker_l1_size", raw.worker_l1_size), ("dram_bank_size", raw.dram_bank_size)] {
        if v == 0 {
            return Err(SocError::new(file, "size must not be zero").key(key).value(v));
        }
    }
    if raw.eth_l1_size == 0 && !eth.is_empty() {
        return Err(SocError::new(file, "size must not be zero when the chip has Ethernet tiles")
            .key("eth_l1_size")
            .value(0));
    }
    // Kernels address L1 with 32-bit pointers, and a NoC address carries at most 36 bits of local address.
    for (key, v, max, why) in [
        ("worker_l1_size", raw.worker_l1_size, MAX_L1_BYTES, "kernels address L1 with 32-bit pointers"),
        ("eth_l1_size", raw.eth_l1_size, MAX_L1_BYTES, "kernels address L1 with 32-bit pointers"),
        ("dram_bank_size", raw.dram_bank_size, MAX_DRAM_BANK_BYTES, "a NoC address carries 36 bits of local address"),
    ] {
        if v > max {
            return Err(SocError::new(file, format!("size must be at most {max} bytes ({why})")).key(key).value(v));
        }
    }

    let dram_banks = dram_banks(&raw, file, &b, &dram_channels)?;
    let noc1_x = mirror_table(raw.noc0_x_to_noc1_x, grid.x, "noc0_x_to_noc1_x", file)?;
    let noc1_y = mirror_table(raw.noc0_y_to_noc1_y, grid.y, "noc0_y_to_noc1_y", file)?;

    let tiles = b.tiles.into_iter().map(|t| t.map(|(k, _)| k).unwrap_or(TileKind::Empty)).collect();
    let f = &raw.features;
    Ok(SocDescriptor {
        arch,
        grid,
        tiles,
        workers,
        eth,
        pcie,
        arc,
        dram_channels,
        dram_banks,
        worker_l1_size: raw.worker_l1_size,
        eth_l1_size: raw.eth_l1_size,
        dram_channel_size: raw.dram_bank_size,
        noc1_x,
        noc1_y,
        features: Features {
            noc_translation_id_enabled: f.noc.as_ref().and_then(|n| n.translation_id_enabled),
            unpacker_version: f.unpacker.version,
            unpacker_inline_srca_trans: f.unpacker.inline_srca_trans_without_srca_trans_instr,
            math_dst_size_alignment: f.math.dst_size_alignment,
            packer_version: f.packer.version,
            overlay_version: f.overlay.version,
        },
    })
}

/// DRAM banks from `dram_views` (current tt-metal), the older flattened keys, or — for files without either
/// (tt-umd) — one bank per channel at offset 0 through its first endpoint.
fn dram_banks(raw: &RawSoc, file: &str, b: &Builder<'_>, channels: &[DramChannel]) -> Result<Vec<DramBank>, SocError> {
    if let Some(views) = &raw.dram_views {
        let size = raw.dram_view_size.ok_or_else(|| {
            SocError::new(file, "missing key: required when `dram_views` is given")
                .key("dram_view_size")
                .hint("add `dram_view_size: <bytes>`, the size of every DRAM view")
        })?;
        if size == 0 {
            return Err(SocError::new(file, "size must not be zero").key("dram_view_size").value(0));
        }
        if size > MAX_DRAM_BANK_BYTES {
            return Err(SocError::new(
                file,
                format!(
                    "size must be at most {MAX_DRAM_BANK_BYTES} bytes (a NoC address carries 36 bits of local address)"
                ),
            )
            .key("dram_view_size")
            .value(size));
        }
        if views.is_empty() {
            return Err(SocError::new(file, "no DRAM views").key("dram_views").hint("list one view per DRAM bank"));
        }
        let mut banks = Vec::with_capacity(views.len());
        for (i, v) in views.iter().enumerate() {
            let ch = channels.get(v.channel as usize).ok_or_else(|| {
                SocError::new(file, format!("channel does not exist (the file has {} DRAM channels)", channels.len()))
                    .key(format!("dram_views[{i}].channel"))
                    .value(v.channel)
            })?;
            for (name, ep) in [("worker_endpoint", v.worker_endpoint), ("eth_endpoint", v.eth_endpoint)] {
                for (noc, &s) in ep.0.iter().enumerate() {
                    if s as usize >= ch.endpoints.len() {
                        return Err(SocError::new(
                            file,
                            format!(
                                "subchannel does not exist (channel {} has {} endpoints)",
                                v.channel,
                                ch.endpoints.len()
                            ),
                        )
                        .key(format!("dram_views[{i}].{name}[{noc}]"))
                        .value(s));
                    }
                }
            }
            if v.address_offset.checked_add(size).is_none_or(|end| end > raw.dram_bank_size) {
                return Err(SocError::new(
                    file,
                    format!(
                        "view [{}, +{size}) does not fit in the {}-byte channel",
                        v.address_offset, raw.dram_bank_size
                    ),
                )
                .key(format!("dram_views[{i}].address_offset"))
                .value(v.address_offset));
            }
            banks.push(DramBank {
                channel: v.channel,
                address_offset: v.address_offset,
                size_bytes: size,
                worker_endpoint: v.worker_endpoint.0,
                eth_endpoint: v.eth_endpoint.0,
            });
        }
        return Ok(banks);
    }
    if let (Some(workers), Some(eths), Some(offsets)) =
        (&raw.dram_preferred_worker_endpoint, &raw.dram_preferred_eth_endpoint, &raw.dram_address_offsets)
    {
        if workers.len() != eths.len() || workers.len() != offsets.len() {
            return Err(SocError::new(file, "the three legacy DRAM lists must have the same length")
                .key("dram_preferred_worker_endpoint")
                .value(format!("{} / {} / {}", workers.len(), eths.len(), offsets.len())));
        }
        let n = workers.len() as u64;
        let per_channel = n.div_ceil(channels.len() as u64).max(1);
        let size = raw.dram_bank_size / per_channel;
        let mut banks = Vec::new();
        for i in 0..workers.len() {
            let locate = |key: String, r: &RawCoord| -> Result<(u32, u32), SocError> {
                let c = b.coord(r, &key)?;
                channels
                    .iter()
                    .enumerate()
                    .find_map(|(ch, chan)| chan.endpoints.iter().position(|e| *e == c).map(|s| (ch as u32, s as u32)))
                    .ok_or_else(|| SocError::new(file, "not a DRAM endpoint").key(key).value(r))
            };
            let (wc, ws) = locate(format!("dram_preferred_worker_endpoint[{i}]"), &workers[i])?;
            let (ec, es) = locate(format!("dram_preferred_eth_endpoint[{i}]"), &eths[i])?;
            if wc != ec {
                return Err(SocError::new(file, "worker and eth endpoints of one bank are in different channels")
                    .key(format!("dram_preferred_eth_endpoint[{i}]"))
                    .value(&eths[i]));
            }
            banks.push(DramBank {
                channel: wc,
                address_offset: offsets[i],
                size_bytes: size,
                worker_endpoint: [ws, ws],
                eth_endpoint: [es, es],
            });
        }
        return Ok(banks);
    }
    Ok(channels
        .iter()
        .enumerate()
        .map(|(ch, _)| DramBank {
            channel: ch as u32,
            address_offset: 0,
            size_bytes: raw.dram_bank_size,
            worker_endpoint: [0, 0],
            eth_endpoint: [0, 0],
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinate_strings() {
        assert_eq!(parse_coord("1-11"), Some(Noc0Coord::new(1, 11)));
        assert_eq!(parse_coord(" 9-0 "), Some(Noc0Coord::new(9, 0)));
        assert_eq!(parse_coord("1_1"), None);
        assert_eq!(parse_coord("1-"), None);
        assert_eq!(parse_coord("-1"), None);
        assert_eq!(parse_coord("a-1"), None);
        assert_eq!(parse_coord("1-1-1"), None);
    }
}
