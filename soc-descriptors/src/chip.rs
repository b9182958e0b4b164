//! The chip as the host sees it: a SoC descriptor with a harvesting mask and a core-descriptor configuration
//! applied. Owns the logical worker grid, the compute-with-storage grid, storage and dispatch cores, and every
//! conversion between logical, NoC0, NoC1 and translated coordinates.

use crate::arch::{Arch, HarvestAxis};
use crate::coords::{GridSize, LogicalCoord, Noc0Coord, Noc1Coord, NocId, RelativeCoord, TranslatedCoord};
use crate::core_desc::{CoreConfig, CoreDescriptor, DispatchAxis, DispatchCoreType};
use crate::descriptor::{SocDescriptor, TileKind};
use crate::error::SocError;
use serde::Serialize;

/// Options that pick one configuration of a chip.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ChipOptions {
    /// Harvested Tensix rows (Wormhole, Grayskull) or columns (Blackhole): bit `i` removes the `i`-th
    /// Tensix row/column counted in increasing NoC0 coordinate (tt-umd's logical harvesting mask).
    pub harvest_mask: u32,
    /// Number of hardware command queues (1 or 2; 0 means 1).
    pub num_hw_cqs: u32,
    /// Dispatch axis for axis-keyed core descriptors; `None` picks the only one present.
    pub dispatch_axis: Option<DispatchAxis>,
}

/// An inclusive rectangle of logical coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct LogicalRange {
    /// Top-left corner.
    pub start: LogicalCoord,
    /// Bottom-right corner (inclusive).
    pub end: LogicalCoord,
}

impl LogicalRange {
    /// Columns × rows.
    pub fn size(&self) -> GridSize {
        GridSize::new(self.end.x - self.start.x + 1, self.end.y - self.start.y + 1)
    }

    /// Whether `c` lies inside.
    pub fn contains(&self, c: LogicalCoord) -> bool {
        (self.start.x..=self.end.x).contains(&c.x) && (self.start.y..=self.end.y).contains(&c.y)
    }
}

/// A SoC descriptor with harvesting and a core configuration applied.
#[derive(Debug, Clone)]
pub struct Chip {
    soc: SocDescriptor,
    core_source: String,
    harvest_mask: u32,
    product: String,
    num_hw_cqs: u32,
    dispatch_axis: Option<DispatchAxis>,
    logical: GridSize,
    /// Logical x → NoC0 x.
    col_x: Vec<u32>,
    /// Logical y → NoC0 y.
    row_y: Vec<u32>,
    harvested_lines: Vec<u32>,
    compute_grid: LogicalRange,
    storage_cores: Vec<LogicalCoord>,
    dispatch_cores: Vec<LogicalCoord>,
    dispatch_eth: Vec<RelativeCoord>,
    dispatch_core_type: DispatchCoreType,
    storage_core_bank_size: Option<u64>,
    /// Translated coordinate of every NoC0 tile, row-major over the NoC grid.
    fwd: Vec<TranslatedCoord>,
    /// NoC0 tile of every translated coordinate (64×64 table, row-major); `None` where nothing is.
    rev: Vec<Option<Noc0Coord>>,
    /// Logical coordinate of every NoC0 tile that is a usable worker.
    logical_of: Vec<Option<LogicalCoord>>,
}

const XLATE_DIM: u32 = 64;

impl Chip {
    /// Apply `opts` to `soc` using `core` (named `core_source` in errors).
    pub fn new(
        soc: SocDescriptor,
        core: &CoreDescriptor,
        core_source: &str,
        opts: ChipOptions,
    ) -> Result<Chip, SocError> {
        let arch = soc.arch;
        let axis_kind = arch.harvest_axis();
        let cols = soc.tensix_columns();
        let rows = soc.tensix_rows();
        let lines = match axis_kind {
            HarvestAxis::Rows => &rows,
            HarvestAxis::Columns => &cols,
        };
        let what = match axis_kind {
            HarvestAxis::Rows => "rows",
            HarvestAxis::Columns => "columns",
        };
        let n = lines.len() as u32;
        if n < 32 && opts.harvest_mask >> n != 0 {
            return Err(SocError::new(core_source, format!("harvesting mask names Tensix {what} that do not exist"))
                .key("harvest mask")
                .value(format!("{:#x}", opts.harvest_mask))
                .hint(format!("{} has {n} Tensix {what}: use bits 0..{}", arch, n - 1)));
        }
        let harvested_count = opts.harvest_mask.count_ones();
        if harvested_count >= n {
            return Err(SocError::new(
                core_source,
                format!("harvesting mask removes every Tensix {}", &what[..what.len() - 1]),
            )
            .key("harvest mask")
            .value(format!("{:#x}", opts.harvest_mask)));
        }
        let product = arch.product_name(harvested_count).ok_or_else(|| {
            SocError::new(core_source, format!("no {arch} product has {harvested_count} harvested {what}"))
                .key("harvest mask")
                .value(format!("{:#x}", opts.harvest_mask))
                .hint(match arch {
                    Arch::Grayskull => "Grayskull products harvest 0 (E150) or 2 (E75) rows",
                    Arch::WormholeB0 => "Wormhole products harvest 0 (galaxy), 1 (nebula_x1) or 2 (nebula_x2) rows",
                    Arch::Blackhole => "Blackhole products harvest 0, 1 or 2 columns",
                })
        })?;
        let num_hw_cqs = if opts.num_hw_cqs == 0 { 1 } else { opts.num_hw_cqs };
        let entry = core
            .select(product, opts.dispatch_axis, num_hw_cqs)
            .map_err(|m| SocError::new(core_source, m).key(product))?;
        let kept: Vec<u32> =
            lines.iter().enumerate().filter(|(i, _)| opts.harvest_mask & (1 << i) == 0).map(|(_, v)| *v).collect();
        let harvested_lines: Vec<u32> =
            lines.iter().enumerate().filter(|(i, _)| opts.harvest_mask & (1 << i) != 0).map(|(_, v)| *v).collect();
        let (col_x, row_y) = match axis_kind {
            HarvestAxis::Rows => (cols.clone(), kept),
            HarvestAxis::Columns => (kept, rows.clone()),
        };
        let logical = GridSize::new(col_x.len() as u32, row_y.len() as u32);
        let config = &entry.config;
        let path = match entry.axis {
            Some(a) => format!("{product}.{a}.{num_hw_cqs}"),
            None => format!("{product}.{num_hw_cqs}"),
        };
        let (compute_grid, storage_cores, dispatch_cores, dispatch_eth) =
            resolve_config(config, logical, core_source, &path)?;

        let mut chip = Chip {
            soc,
            core_source: core_source.to_string(),
            harvest_mask: opts.harvest_mask,
            product: product.to_string(),
            num_hw_cqs,
            dispatch_axis: entry.axis,
            logical,
            col_x,
            row_y,
            harvested_lines,
            compute_grid,
            storage_cores,
            dispatch_cores,
            dispatch_eth,
            dispatch_core_type: config.dispatch_core_type,
            storage_core_bank_size: config.storage_core_bank_size,
            fwd: Vec::new(),
            rev: Vec::new(),
            logical_of: Vec::new(),
        };
        chip.build_translation();
        Ok(chip)
    }

    fn build_translation(&mut self) {
        let g = self.soc.grid;
        let arch = self.soc.arch;
        let mut fwd: Vec<TranslatedCoord> = Vec::with_capacity(g.count());
        let mut logical_of = vec![None; g.count()];
        for ly in 0..self.logical.y {
            for lx in 0..self.logical.x {
                let p = Noc0Coord::new(self.col_x[lx as usize], self.row_y[ly as usize]);
                logical_of[(p.y * g.x + p.x) as usize] = Some(LogicalCoord::new(lx, ly));
            }
        }
        // Order of every Tensix line (unharvested first, harvested after) for translated numbering.
        let cols = self.soc.tensix_columns();
        let rows = self.soc.tensix_rows();
        let (line_order_x, line_order_y): (Vec<u32>, Vec<u32>) = match arch.harvest_axis() {
            HarvestAxis::Rows => {
                (cols.clone(), self.row_y.iter().chain(self.harvested_lines.iter()).copied().collect())
            }
            HarvestAxis::Columns => {
                (self.col_x.iter().chain(self.harvested_lines.iter()).copied().collect(), rows.clone())
            }
        };
        for (p, kind) in self.soc.tiles() {
            let t = match (arch, kind) {
                (Arch::WormholeB0, TileKind::Tensix) => {
                    let ix = line_order_x.iter().position(|&v| v == p.x).unwrap_or(0) as u32;
                    let iy = line_order_y.iter().position(|&v| v == p.y).unwrap_or(0) as u32;
                    TranslatedCoord::new(18 + ix, 18 + iy)
                }
                (Arch::WormholeB0, TileKind::Eth { .. }) => {
                    // Ethernet rows are numbered 16 (top) and 17 (bottom), columns from 18 in NoC0 order.
                    let mut row_xs: Vec<u32> = self.soc.eth.iter().filter(|e| e.y == p.y).map(|e| e.x).collect();
                    row_xs.sort_unstable();
                    let ix = row_xs.iter().position(|&v| v == p.x).unwrap_or(0) as u32;
                    let top = self.soc.eth.iter().map(|e| e.y).min().unwrap_or(0);
                    TranslatedCoord::new(18 + ix, if p.y == top { 16 } else { 17 })
                }
                (Arch::Blackhole, TileKind::Tensix) => {
                    // Translated Tensix columns reuse the physical column numbers, unharvested columns first.
                    let ix = line_order_x.iter().position(|&v| v == p.x).unwrap_or(0);
                    TranslatedCoord::new(cols[ix], p.y)
                }
                _ => TranslatedCoord::new(p.x, p.y),
            };
            fwd.push(t);
        }
        let mut rev = vec![None; (XLATE_DIM * XLATE_DIM) as usize];
        for (p, _) in self.soc.tiles() {
            let t = fwd[(p.y * g.x + p.x) as usize];
            if t.x < XLATE_DIM && t.y < XLATE_DIM {
                rev[(t.y * XLATE_DIM + t.x) as usize] = Some(p);
            }
        }
        self.fwd = fwd;
        self.rev = rev;
        self.logical_of = logical_of;
    }

    /// The underlying SoC descriptor.
    pub fn soc(&self) -> &SocDescriptor {
        &self.soc
    }

    /// The architecture.
    pub fn arch(&self) -> Arch {
        self.soc.arch
    }

    /// Where the core descriptor came from (a path or `built-in <arch>`).
    pub fn core_source(&self) -> &str {
        &self.core_source
    }

    /// The harvesting mask applied.
    pub fn harvest_mask(&self) -> u32 {
        self.harvest_mask
    }

    /// NoC0 coordinates (rows or columns) removed by harvesting.
    pub fn harvested_lines(&self) -> &[u32] {
        &self.harvested_lines
    }

    /// tt-metal product name selected from the harvesting.
    pub fn product(&self) -> &str {
        &self.product
    }

    /// Number of hardware command queues of the selected configuration.
    pub fn num_hw_cqs(&self) -> u32 {
        self.num_hw_cqs
    }

    /// Dispatch axis of the selected configuration, for axis-keyed files.
    pub fn dispatch_axis(&self) -> Option<DispatchAxis> {
        self.dispatch_axis
    }

    /// The logical worker grid (all unharvested Tensix workers).
    pub fn logical_grid(&self) -> GridSize {
        self.logical
    }

    /// The compute-with-storage grid (a rectangle of the logical grid).
    pub fn compute_grid(&self) -> LogicalRange {
        self.compute_grid
    }

    /// `compute_with_storage_grid_size()`.
    pub fn compute_with_storage_grid_size(&self) -> GridSize {
        self.compute_grid.size()
    }

    /// Storage-only cores.
    pub fn storage_cores(&self) -> &[LogicalCoord] {
        &self.storage_cores
    }

    /// L1 bank size of storage-only cores, bytes.
    pub fn storage_core_bank_size(&self) -> Option<u64> {
        self.storage_core_bank_size
    }

    /// Tensix dispatch cores (empty when dispatch runs on Ethernet cores).
    pub fn dispatch_cores(&self) -> &[LogicalCoord] {
        &self.dispatch_cores
    }

    /// Ethernet dispatch cores as the core descriptor lists them.
    pub fn dispatch_eth_cores(&self) -> &[RelativeCoord] {
        &self.dispatch_eth
    }

    /// Which cores run dispatch.
    pub fn dispatch_core_type(&self) -> DispatchCoreType {
        self.dispatch_core_type
    }

    /// NoC0 position of a logical worker.
    pub fn logical_to_noc0(&self, c: LogicalCoord) -> Option<Noc0Coord> {
        Some(Noc0Coord::new(*self.col_x.get(c.x as usize)?, *self.row_y.get(c.y as usize)?))
    }

    /// Logical coordinate of a NoC0 tile that is a usable worker.
    pub fn noc0_to_logical(&self, c: Noc0Coord) -> Option<LogicalCoord> {
        if !self.soc.contains(c) {
            return None;
        }
        self.logical_of[(c.y * self.soc.grid.x + c.x) as usize]
    }

    /// NoC1 position of a NoC0 tile.
    pub fn noc0_to_noc1(&self, c: Noc0Coord) -> Noc1Coord {
        self.soc.noc0_to_noc1(c)
    }

    /// Translated coordinate of a NoC0 tile.
    pub fn noc0_to_translated(&self, c: Noc0Coord) -> TranslatedCoord {
        self.fwd[(c.y * self.soc.grid.x + c.x) as usize]
    }

    /// NoC0 tile of a translated coordinate.
    pub fn translated_to_noc0(&self, t: TranslatedCoord) -> Option<Noc0Coord> {
        if t.x >= XLATE_DIM || t.y >= XLATE_DIM {
            return None;
        }
        self.rev[(t.y * XLATE_DIM + t.x) as usize]
    }

    /// tt-metal's `worker_core_from_logical_core`: the coordinate kernels use for a logical worker.
    pub fn worker_core_from_logical_core(&self, c: LogicalCoord) -> Option<TranslatedCoord> {
        self.logical_to_noc0(c).map(|p| self.noc0_to_translated(p))
    }

    /// Whether `c` is a usable (unharvested) Tensix worker.
    pub fn is_worker(&self, c: Noc0Coord) -> bool {
        self.noc0_to_logical(c).is_some()
    }

    /// Number of DRAM banks.
    pub fn num_dram_banks(&self) -> usize {
        self.soc.dram_banks.len()
    }

    /// `dram_bank_to_noc_xy[noc][bank]`: the coordinate workers use for DRAM bank `bank` on `noc`.
    pub fn dram_bank_noc_xy(&self, noc: NocId, bank: usize) -> TranslatedCoord {
        self.noc0_to_translated(self.soc.dram_bank_worker_endpoint(bank, noc))
    }

    /// `dram_bank_to_noc_xy` as the NoC0 endpoint.
    pub fn dram_bank_noc0(&self, noc: NocId, bank: usize) -> Noc0Coord {
        self.soc.dram_bank_worker_endpoint(bank, noc)
    }
}

type Resolved = (LogicalRange, Vec<LogicalCoord>, Vec<LogicalCoord>, Vec<RelativeCoord>);

fn resolve_config(c: &CoreConfig, logical: GridSize, file: &str, path: &str) -> Result<Resolved, SocError> {
    let resolve = |r: RelativeCoord, key: String| {
        r.resolve(logical).ok_or_else(|| {
            SocError::new(file, format!("core outside the {logical} logical worker grid of this harvesting"))
                .key(key)
                .value(r)
        })
    };
    let start = resolve(c.compute_grid.start, format!("{path}.compute_with_storage_grid_range.start"))?;
    let end = resolve(c.compute_grid.end, format!("{path}.compute_with_storage_grid_range.end"))?;
    if start.x > end.x || start.y > end.y {
        return Err(SocError::new(file, "range start is past its end")
            .key(format!("{path}.compute_with_storage_grid_range"))
            .value(format!("{start} .. {end}")));
    }
    let storage = c
        .storage_cores
        .iter()
        .enumerate()
        .map(|(i, r)| resolve(*r, format!("{path}.storage_cores[{i}]")))
        .collect::<Result<Vec<_>, _>>()?;
    let (dispatch, eth) = match c.dispatch_core_type {
        DispatchCoreType::Tensix => (
            c.dispatch_cores
                .iter()
                .enumerate()
                .map(|(i, r)| resolve(*r, format!("{path}.dispatch_cores[{i}]")))
                .collect::<Result<Vec<_>, _>>()?,
            Vec::new(),
        ),
        DispatchCoreType::Ethernet => (Vec::new(), c.dispatch_cores.clone()),
    };
    Ok((LogicalRange { start, end }, storage, dispatch, eth))
}
