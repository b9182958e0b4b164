//! Sharded placement. A tensor, counted in pages, is cut into shards of a fixed shape (the last shard of
//! each dimension may be partial: its missing pages are padding); shards are numbered row-major over the
//! shard grid and dealt to the cores of a core list:
//!
//! - round-robin (`ROUND_ROBIN_1D`, tt-metal's default): shard `i` to core `i % cores`, as the
//!   `i / cores`-th shard of that core;
//! - 2-D (`GRID_2D`, tensim's reading of it): the shard grid, flattened to rows × columns (outer dimensions
//!   folded into rows), is laid block-cyclically over a rectangular core grid — shard `(r, c)` to core
//!   `(c % cols, r % rows)`.
//!
//! Inside a core, shards are stored one after another and each shard's pages row-major over the shard
//! shape. The legacy 2-D shard spec (`ShardSpecBuffer` with HEIGHT/WIDTH/BLOCK sharding) is the rank-2 case
//! with at most one shard per core; tt-metal's N-D `BufferDistributionSpec` is the general one.

use super::PageLocation;
use crate::core_ranges::{CoreCoord, CoreRangeSet, corerange_to_cores};
use crate::error::LayoutError;
use crate::shape::Shape;
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// The order shards are dealt to cores: along rows of the core grid or down its columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Default)]
pub enum ShardOrientation {
    /// Row by row (x fastest).
    #[default]
    RowMajor,
    /// Column by column (y fastest).
    ColMajor,
}

impl FromStr for ShardOrientation {
    type Err = LayoutError;
    fn from_str(s: &str) -> Result<Self, LayoutError> {
        match s.to_ascii_lowercase().as_str() {
            "row_major" | "row" => Ok(ShardOrientation::RowMajor),
            "col_major" | "col" | "column_major" => Ok(ShardOrientation::ColMajor),
            _ => Err(LayoutError::value("orientation", s, "row_major or col_major")),
        }
    }
}

impl fmt::Display for ShardOrientation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ShardOrientation::RowMajor => "row_major",
            ShardOrientation::ColMajor => "col_major",
        })
    }
}

/// tt-metal's `TensorMemoryLayout`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum TensorMemoryLayout {
    /// Pages round-robin over every bank.
    Interleaved,
    /// Shards of whole rows.
    HeightSharded,
    /// Shards of whole columns.
    WidthSharded,
    /// 2-D blocks.
    BlockSharded,
}

impl fmt::Display for TensorMemoryLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TensorMemoryLayout::Interleaved => "INTERLEAVED",
            TensorMemoryLayout::HeightSharded => "HEIGHT_SHARDED",
            TensorMemoryLayout::WidthSharded => "WIDTH_SHARDED",
            TensorMemoryLayout::BlockSharded => "BLOCK_SHARDED",
        })
    }
}

/// How shards are dealt to cores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Default)]
pub enum DistributionStrategy {
    /// Shard `i` to core `i % cores` (tt-metal's `ROUND_ROBIN_1D`).
    #[default]
    RoundRobin1D,
    /// Block-cyclic over a `cols × rows` core grid (tt-metal's `GRID_2D`, as tensim reads it).
    Grid2D {
        /// Core grid columns.
        cols: u32,
        /// Core grid rows.
        rows: u32,
    },
}

/// Shards of a tensor (in pages) dealt to `num_cores` cores.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardDistribution {
    tensor_pages: Shape,
    shard_pages: Shape,
    shard_grid: Shape,
    num_shards: u64,
    shard_volume: u64,
    num_cores: u32,
    strategy: DistributionStrategy,
}

impl ShardDistribution {
    /// Shards of `shard_pages` over a tensor of `tensor_pages` (same rank), dealt to `num_cores` cores.
    pub fn new(
        tensor_pages: Shape,
        shard_pages: Shape,
        num_cores: u32,
        strategy: DistributionStrategy,
    ) -> Result<ShardDistribution, LayoutError> {
        tensor_pages.check_nonzero("tensor shape in pages")?;
        shard_pages.check_nonzero("shard shape in pages")?;
        if tensor_pages.rank() != shard_pages.rank() {
            return Err(LayoutError::mismatch(
                "the shard's rank must equal the tensor's",
                format!("shard {shard_pages}"),
                format!("tensor {tensor_pages}"),
            ));
        }
        if num_cores == 0 {
            return Err(LayoutError::value("cores", 0, "a sharded buffer needs at least one core"));
        }
        if let DistributionStrategy::Grid2D { cols, rows } = strategy
            && cols as u64 * rows as u64 != num_cores as u64
        {
            return Err(LayoutError::mismatch(
                "GRID_2D needs a rectangular core grid",
                format!("{cols}x{rows}"),
                num_cores,
            ));
        }
        let shard_grid = tensor_pages.ceil_div(&shard_pages);
        Ok(ShardDistribution {
            num_shards: shard_grid.volume(),
            shard_volume: shard_pages.volume(),
            tensor_pages,
            shard_pages,
            shard_grid,
            num_cores,
            strategy,
        })
    }

    /// The tensor in pages.
    pub fn tensor_pages(&self) -> &Shape {
        &self.tensor_pages
    }

    /// One shard in pages.
    pub fn shard_pages(&self) -> &Shape {
        &self.shard_pages
    }

    /// Shards along each dimension.
    pub fn shard_grid(&self) -> &Shape {
        &self.shard_grid
    }

    /// Number of shards.
    pub fn num_shards(&self) -> u64 {
        self.num_shards
    }

    /// How shards are dealt to cores.
    pub fn strategy(&self) -> DistributionStrategy {
        self.strategy
    }

    /// Number of cores shards are dealt to.
    pub fn num_cores(&self) -> u32 {
        self.num_cores
    }

    /// Host pages (the tensor's pages; padding excluded).
    pub fn num_pages(&self) -> u64 {
        self.tensor_pages.volume()
    }

    /// The largest number of shards any core holds.
    pub fn max_shards_per_core(&self) -> u64 {
        match self.strategy {
            DistributionStrategy::RoundRobin1D => self.num_shards.div_ceil(self.num_cores as u64),
            DistributionStrategy::Grid2D { cols, rows } => {
                let (r, c) = self.grid_2d();
                r.div_ceil(rows as u64) * c.div_ceil(cols as u64)
            }
        }
    }

    /// Page slots each core reserves.
    pub fn slots_per_core(&self) -> u64 {
        self.max_shards_per_core() * self.shard_volume
    }

    /// Cores that receive at least one shard.
    pub fn num_cores_with_data(&self) -> u32 {
        match self.strategy {
            DistributionStrategy::RoundRobin1D => self.num_shards.min(self.num_cores as u64) as u32,
            DistributionStrategy::Grid2D { cols, rows } => {
                let (r, c) = self.grid_2d();
                (r.min(rows as u64) * c.min(cols as u64)) as u32
            }
        }
    }

    /// The shard grid folded to rows × columns.
    fn grid_2d(&self) -> (u64, u64) {
        let r = self.shard_grid.rank();
        let cols = self.shard_grid.dims()[r - 1];
        (self.num_shards / cols.max(1), cols)
    }

    /// (core, shard index inside the core) of shard `id`.
    fn assign(&self, id: u64) -> (u32, u64) {
        match self.strategy {
            DistributionStrategy::RoundRobin1D => ((id % self.num_cores as u64) as u32, id / self.num_cores as u64),
            DistributionStrategy::Grid2D { cols, rows } => {
                let (_, gc) = self.grid_2d();
                let (r, c) = (id / gc, id % gc);
                let core = (r % rows as u64) * cols as u64 + c % cols as u64;
                let local = (r / rows as u64) * gc.div_ceil(cols as u64) + c / cols as u64;
                (core as u32, local)
            }
        }
    }

    /// The shard held as the `local`-th shard of `core`, if any.
    fn shard_at(&self, core: u32, local: u64) -> Option<u64> {
        if core >= self.num_cores {
            return None;
        }
        let id = match self.strategy {
            DistributionStrategy::RoundRobin1D => local.checked_mul(self.num_cores as u64)?.checked_add(core as u64)?,
            DistributionStrategy::Grid2D { cols, rows } => {
                let (gr, gc) = self.grid_2d();
                let per_row = gc.div_ceil(cols as u64);
                let (lr, lc) = (local / per_row, local % per_row);
                let (cy, cx) = (core as u64 / cols as u64, core as u64 % cols as u64);
                let (r, c) = (lr * rows as u64 + cy, lc * cols as u64 + cx);
                if r >= gr || c >= gc {
                    return None;
                }
                r * gc + c
            }
        };
        (id < self.num_shards).then_some(id)
    }

    /// Where host page `page` lives.
    pub fn locate(&self, page: u64) -> Option<PageLocation> {
        if page >= self.num_pages() {
            return None;
        }
        let r = self.tensor_pages.rank();
        let mut coord = vec![0u64; r];
        self.tensor_pages.unravel(page, &mut coord);
        let mut shard = vec![0u64; r];
        let mut within = vec![0u64; r];
        for d in 0..r {
            let s = self.shard_pages.dims()[d];
            shard[d] = coord[d] / s;
            within[d] = coord[d] % s;
        }
        let id = self.shard_grid.ravel(&shard);
        let (core, local) = self.assign(id);
        Some(PageLocation { bank: core, slot: local * self.shard_volume + self.shard_pages.ravel(&within) })
    }

    /// The host page in `slot` of `core`; `None` for padding or an unused slot.
    pub fn host_page(&self, core: u32, slot: u64) -> Option<u64> {
        let id = self.shard_at(core, slot / self.shard_volume)?;
        let r = self.tensor_pages.rank();
        let mut shard = vec![0u64; r];
        self.shard_grid.unravel(id, &mut shard);
        let mut within = vec![0u64; r];
        self.shard_pages.unravel(slot % self.shard_volume, &mut within);
        let coord: Vec<u64> = (0..r).map(|d| shard[d] * self.shard_pages.dims()[d] + within[d]).collect();
        self.tensor_pages.contains(&coord).then(|| self.tensor_pages.ravel(&coord))
    }

    /// The core and first slot of shard `id` (`None` past the last shard).
    pub fn shard_location(&self, id: u64) -> Option<PageLocation> {
        if id >= self.num_shards {
            return None;
        }
        let (core, local) = self.assign(id);
        Some(PageLocation { bank: core, slot: local * self.shard_volume })
    }

    /// The shard id (row-major over the shard grid) of each core's shards, for pictures and reports.
    pub fn shards_of(&self, core: u32) -> Vec<u64> {
        (0..self.max_shards_per_core()).filter_map(|l| self.shard_at(core, l)).collect()
    }
}

/// tt-metal's legacy shard spec of a buffer (`ShardSpecBuffer`): a core grid, a 2-D shard shape in elements,
/// the orientation, the page shape and the tensor's 2-D shape in pages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardSpecBuffer {
    /// Cores holding shards.
    pub grid: CoreRangeSet,
    /// Shard `[height, width]`, elements.
    pub shard_shape: [u32; 2],
    /// Order of cores.
    pub orientation: ShardOrientation,
    /// Page `[height, width]`, elements (`[32, 32]` for tiles, `[1, width]` for row-major pages).
    pub page_shape: [u32; 2],
    /// The tensor's `[rows, columns]` in pages.
    pub tensor2d_shape_in_pages: [u32; 2],
}

impl ShardSpecBuffer {
    /// The cores in shard order.
    pub fn cores(&self) -> Vec<CoreCoord> {
        corerange_to_cores(&self.grid, None, self.orientation == ShardOrientation::RowMajor)
    }

    /// Shard shape in pages.
    pub fn shard_shape_in_pages(&self) -> [u32; 2] {
        [
            self.shard_shape[0].div_ceil(self.page_shape[0].max(1)),
            self.shard_shape[1].div_ceil(self.page_shape[1].max(1)),
        ]
    }

    /// The placement of a buffer sharded `layout`-wise with this spec: checks what tt-metal requires (non-zero
    /// shapes, whole rows for HEIGHT, whole columns for WIDTH, no more shards than cores).
    pub fn distribution(&self, layout: TensorMemoryLayout) -> Result<ShardDistribution, LayoutError> {
        for (i, v) in self.shard_shape.iter().enumerate() {
            if *v == 0 {
                return Err(LayoutError::value(format!("shard_shape[{i}]"), 0, "shard extents must be at least 1"));
            }
        }
        for (i, v) in self.page_shape.iter().enumerate() {
            if *v == 0 {
                return Err(LayoutError::value(format!("page_shape[{i}]"), 0, "page extents must be at least 1"));
            }
        }
        let sp = self.shard_shape_in_pages();
        let tp = self.tensor2d_shape_in_pages;
        match layout {
            TensorMemoryLayout::HeightSharded if sp[1] != tp[1] => {
                return Err(LayoutError::Illegal(format!(
                    "HEIGHT_SHARDED shards hold whole rows: the shard is {} pages wide but the tensor {} (shard {}x{} elements, page {}x{})",
                    sp[1], tp[1], self.shard_shape[0], self.shard_shape[1], self.page_shape[0], self.page_shape[1]
                )));
            }
            TensorMemoryLayout::WidthSharded if sp[0] != tp[0] => {
                return Err(LayoutError::Illegal(format!(
                    "WIDTH_SHARDED shards hold whole columns: the shard is {} pages tall but the tensor {} (shard {}x{} elements, page {}x{})",
                    sp[0], tp[0], self.shard_shape[0], self.shard_shape[1], self.page_shape[0], self.page_shape[1]
                )));
            }
            TensorMemoryLayout::Interleaved => {
                return Err(LayoutError::Illegal("an INTERLEAVED buffer has no shard spec".into()));
            }
            _ => {}
        }
        let d = ShardDistribution::new(
            Shape::new(vec![tp[0] as u64, tp[1] as u64]),
            Shape::new(vec![sp[0] as u64, sp[1] as u64]),
            self.grid.num_cores() as u32,
            DistributionStrategy::RoundRobin1D,
        )?;
        if d.num_shards() > d.num_cores() as u64 {
            return Err(LayoutError::Illegal(format!(
                "{layout}: {} shards of {}x{} pages cover the {}x{}-page tensor but the grid {} has only {} cores",
                d.num_shards(),
                sp[0],
                sp[1],
                tp[0],
                tp[1],
                self.grid,
                d.num_cores()
            )));
        }
        Ok(d)
    }
}

/// tt-metal's N-D buffer distribution: a tensor and a shard shape of any rank (elements), pages of a 2-D
/// page shape over the last two dimensions, and the cores shards go to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BufferDistributionSpec {
    /// The cores, in distribution order.
    pub cores: Vec<CoreCoord>,
    dist: ShardDistribution,
}

impl BufferDistributionSpec {
    /// From shapes in elements: the last two dimensions are divided (rounding up) by the page shape, the
    /// outer ones are kept; cores are taken from `grid` in `orientation` order.
    pub fn from_shard_spec(
        tensor_shape: &Shape,
        shard_shape: &Shape,
        page_shape: [u64; 2],
        grid: &CoreRangeSet,
        orientation: ShardOrientation,
        strategy: DistributionStrategy,
    ) -> Result<BufferDistributionSpec, LayoutError> {
        tensor_shape.check_nonzero("tensor shape")?;
        shard_shape.check_nonzero("shard shape")?;
        tensor_shape.check_tensor_size("tensor shape")?;
        shard_shape.check_tensor_size("shard shape")?;
        if page_shape[0] == 0 || page_shape[1] == 0 || page_shape.iter().any(|d| u32::try_from(*d).is_err()) {
            return Err(LayoutError::value(
                "page",
                format!("{}x{}", page_shape[0], page_shape[1]),
                format!("page extents from 1 to {}", u32::MAX),
            ));
        }
        if tensor_shape.rank() != shard_shape.rank() {
            return Err(LayoutError::mismatch(
                "the shard's rank must equal the tensor's",
                format!("shard {shard_shape}"),
                format!("tensor {tensor_shape}"),
            ));
        }
        // A shard larger than the tensor in some dimension is accepted as given, not clamped: that dimension
        // has one shard, its extra slots are padding pages, and page counts and sizes use the full shard.
        let in_pages = |s: &Shape| {
            let mut v = s.dims().to_vec();
            if v.len() == 1 {
                v.insert(0, 1);
            }
            let n = v.len();
            v[n - 2] = v[n - 2].div_ceil(page_shape[0]);
            v[n - 1] = v[n - 1].div_ceil(page_shape[1]);
            Shape::new(v)
        };
        let cores = corerange_to_cores(grid, None, orientation == ShardOrientation::RowMajor);
        let strategy = match strategy {
            DistributionStrategy::Grid2D { .. } => {
                let bb = match (grid.ranges(), grid.bounding_box()) {
                    ([_], Some(bb)) => bb,
                    _ => {
                        return Err(LayoutError::Illegal(format!("GRID_2D needs one rectangle of cores, not {grid}")));
                    }
                };
                let g = bb.grid_size();
                DistributionStrategy::Grid2D { cols: g.x, rows: g.y }
            }
            s => s,
        };
        let dist = ShardDistribution::new(in_pages(tensor_shape), in_pages(shard_shape), cores.len() as u32, strategy)?;
        Ok(BufferDistributionSpec { cores, dist })
    }

    /// The placement.
    pub fn distribution(&self) -> &ShardDistribution {
        &self.dist
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(s: &str) -> CoreRangeSet {
        s.parse().unwrap()
    }

    #[test]
    fn block_sharding_as_seed_004_figure_4() {
        // 16 tiles (4x4) block-sharded 2x2 tiles per core on a 2x2 core grid, row-major: core (0,0) holds
        // pages 0, 1, 4, 5. (The seed then lists "2, 3, 7, 8" for the next core, a slip for 2, 3, 6, 7: the
        // four pages of the 2x2 block to the right.)
        let spec = ShardSpecBuffer {
            grid: grid("(0,0)-(1,1)"),
            shard_shape: [64, 64],
            orientation: ShardOrientation::RowMajor,
            page_shape: [32, 32],
            tensor2d_shape_in_pages: [4, 4],
        };
        let d = spec.distribution(TensorMemoryLayout::BlockSharded).unwrap();
        let pages = |core: u32| (0..4).map(|s| d.host_page(core, s).unwrap()).collect::<Vec<_>>();
        assert_eq!(spec.cores()[1], CoreCoord::new(1, 0));
        assert_eq!(pages(0), vec![0, 1, 4, 5]);
        assert_eq!(pages(1), vec![2, 3, 6, 7]);
        assert_eq!(pages(2), vec![8, 9, 12, 13]);
        // Column-major orientation sends the second shard down the first column.
        let col = ShardSpecBuffer { orientation: ShardOrientation::ColMajor, ..spec.clone() };
        assert_eq!(col.cores()[1], CoreCoord::new(0, 1));
    }

    #[test]
    fn height_and_width_sharding_rules() {
        let base = ShardSpecBuffer {
            grid: grid("(0,0)-(3,0)"),
            shard_shape: [64, 128],
            orientation: ShardOrientation::RowMajor,
            page_shape: [32, 32],
            tensor2d_shape_in_pages: [8, 4],
        };
        let d = base.distribution(TensorMemoryLayout::HeightSharded).unwrap();
        // Height shards take consecutive pages.
        assert_eq!((0..8).map(|s| d.host_page(1, s).unwrap()).collect::<Vec<_>>(), (8..16).collect::<Vec<_>>());
        assert!(base.distribution(TensorMemoryLayout::WidthSharded).is_err());
        let too_many = ShardSpecBuffer { grid: grid("(0,0)-(1,0)"), ..base.clone() };
        let e = too_many.distribution(TensorMemoryLayout::HeightSharded).unwrap_err().to_string();
        assert!(e.contains("4 shards") && e.contains("only 2 cores"), "{e}");
    }

    #[test]
    fn partial_shards_pad_and_round_robin_wraps() {
        // 5x3 pages in 2x2 shards: a 3x2 shard grid of 6 shards over 4 cores.
        let d = ShardDistribution::new(
            Shape::new(vec![5, 3]),
            Shape::new(vec![2, 2]),
            4,
            DistributionStrategy::RoundRobin1D,
        )
        .unwrap();
        assert_eq!((d.num_shards(), d.max_shards_per_core(), d.slots_per_core()), (6, 2, 8));
        // Shard 1 (pages (0..2, 2..3)) on core 1: its second column is padding.
        assert_eq!((0..4).map(|s| d.host_page(1, s)).collect::<Vec<_>>(), vec![Some(2), None, Some(5), None]);
        // Shard 5 (rows 4..5, cols 2..3) is core 1's second shard.
        assert_eq!(d.host_page(1, 4), Some(14));
        assert_eq!(d.locate(14), Some(PageLocation { bank: 1, slot: 4 }));
        // Core 3 has one shard only: its second shard's slots are unused.
        assert_eq!(d.host_page(3, 4), None);
        for p in 0..15 {
            let l = d.locate(p).unwrap();
            assert_eq!(d.host_page(l.bank, l.slot), Some(p));
        }
    }

    #[test]
    fn nd_distribution_and_grid_2d() {
        let t: Shape = "5x2x64x96".parse().unwrap();
        let s: Shape = "5x2x32x32".parse().unwrap();
        let spec = BufferDistributionSpec::from_shard_spec(
            &t,
            &s,
            [32, 32],
            &grid("(0,0)-(3,3)"),
            ShardOrientation::RowMajor,
            DistributionStrategy::RoundRobin1D,
        )
        .unwrap();
        let d = spec.distribution();
        assert_eq!(d.tensor_pages(), &Shape::new(vec![5, 2, 2, 3]));
        assert_eq!((d.num_shards(), d.num_cores_with_data(), d.slots_per_core()), (6, 6, 10));
        let g2 = BufferDistributionSpec::from_shard_spec(
            &"64x128".parse().unwrap(),
            &"32x32".parse().unwrap(),
            [32, 32],
            &grid("(0,0)-(1,1)"),
            ShardOrientation::RowMajor,
            DistributionStrategy::Grid2D { cols: 0, rows: 0 },
        )
        .unwrap();
        let d2 = g2.distribution();
        // A 2x4 shard grid over 2x2 cores: shard (0,2) wraps to core (0,0) as its second shard.
        assert_eq!(d2.locate(2), Some(PageLocation { bank: 0, slot: 1 }));
        for p in 0..8 {
            let l = d2.locate(p).unwrap();
            assert_eq!(d2.host_page(l.bank, l.slot), Some(p));
        }
        // A shard larger than the tensor (6 > 5 in dimension 0) is accepted: one shard along that dimension,
        // its sixth slot padding; page counts use the full shard.
        let big = BufferDistributionSpec::from_shard_spec(
            &t,
            &"6x2x32x32".parse().unwrap(),
            [32, 32],
            &grid("(0,0)-(3,3)"),
            ShardOrientation::RowMajor,
            DistributionStrategy::RoundRobin1D,
        )
        .unwrap();
        let d = big.distribution();
        assert_eq!((d.num_shards(), d.slots_per_core()), (2 * 3, 6 * 2));
    }
}
