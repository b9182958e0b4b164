//! What TTNN derives from a [`TensorSpec`]: shapes, alignment, strides, pages, shards and the page mapping,
//! and where each logical element lives in the host page order (for host tilize and page shuffling).

use super::{BufferKind, MemoryConfig, PageConfig, ShardMode, ShardSpec, TensorSpec};
use crate::core_ranges::{CoreCoord, CoreRange, CoreRangeSet, corerange_to_cores, num_cores_to_corerangeset};
use crate::error::LayoutError;
use crate::placement::{
    BufferDistributionSpec, Distribution, DistributionStrategy, ShardDistribution, ShardOrientation, TensorMemoryLayout,
};
use crate::shape::Shape;
use crate::tile::TileShape;

fn round_up(v: u64, a: u64) -> u64 {
    v.div_ceil(a.max(1)) * a.max(1)
}

/// The largest padded 2-D area (elements, shard padding included) [`derive()`] works out: 2^48.
pub const MAX_PHYSICAL_ELEMENTS: u64 = 1 << 48;

/// Every shape of `spec` within what [`derive`]'s arithmetic can hold (see [`Shape::check_tensor_size`]).
fn check_sizes(spec: &TensorSpec) -> Result<(), LayoutError> {
    spec.shape.check_tensor_size("shape")?;
    if let Some(p) = &spec.padded_shape {
        p.check_tensor_size("padded shape")?;
    }
    let two_d = |name: &str, v: [u64; 2]| match v.iter().find(|d| u32::try_from(**d).is_err()) {
        Some(&d) => Err(LayoutError::value(name, d, format!("at most {} (TTNN's dimensions are 32-bit)", u32::MAX))),
        None => Ok(()),
    };
    match &spec.memory {
        MemoryConfig::Interleaved(_) => Ok(()),
        MemoryConfig::Sharded { spec: s, .. } => {
            two_d("shard", s.shape)?;
            s.physical_shape.map_or(Ok(()), |p| two_d("physical shard", p))
        }
        MemoryConfig::NdSharded { spec: nd, .. } => nd.shape.check_tensor_size("shard"),
    }
}

/// Everything derived from a tensor spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Derived {
    /// The logical shape.
    pub logical_shape: Shape,
    /// The shape padded to the alignment.
    pub padded_shape: Shape,
    /// The 2-D buffer shape `[height, width]` in elements.
    pub physical_shape: [u64; 2],
    /// Alignment of the trailing dimensions.
    pub alignment: Vec<u64>,
    /// Row-major strides of the padded shape.
    pub strides: Vec<u64>,
    /// Page `[height, width]`, elements.
    pub page_shape: [u64; 2],
    /// Page size, bytes.
    pub page_size: u64,
    /// Page size rounded up to the bank alignment, bytes.
    pub aligned_page_size: u64,
    /// Host pages.
    pub num_pages: u64,
    /// The memory layout.
    pub layout: TensorMemoryLayout,
    /// L1 or DRAM.
    pub buffer: BufferKind,
    /// The shard shape as given (2-D or N-D), elements.
    pub logical_shard_shape: Option<Vec<u64>>,
    /// The shard shape as stored, elements.
    pub physical_shard_shape: Option<Vec<u64>>,
    /// Number of shards.
    pub num_shards: Option<u64>,
    /// Cores (or DRAM banks) of a sharded tensor, in distribution order.
    pub cores: Vec<CoreCoord>,
    /// Where host pages live (interleaved: over `cores.len()` banks unknown here, so one bank).
    pub distribution: Distribution,
    mode: ShardMode,
    logical_2d: [u64; 2],
    logical_shard: [u64; 2],
    physical_shard: [u64; 2],
    tiled: Option<TileShape>,
}

/// Derive a spec (see the module docs of [`super`] for the rules). A rank-0 tensor (a scalar) is stored as
/// one element: physical shape [1, 1] row-major or one tile when tiled, no strides.
pub fn derive(spec: &TensorSpec) -> Result<Derived, LayoutError> {
    if spec.shape.rank() == 0 {
        if !matches!(spec.memory, MemoryConfig::Interleaved(_)) {
            return Err(LayoutError::Illegal(
                "a rank-0 tensor (a scalar) is interleaved; it has nothing to shard".into(),
            ));
        }
        let one = TensorSpec { shape: Shape::new(vec![1]), padded_shape: None, ..spec.clone() };
        let mut d = derive_ranked(&one)?;
        d.logical_shape = spec.shape.clone();
        d.padded_shape = spec.shape.clone();
        d.strides = Vec::new();
        d.alignment = if d.tiled.is_some() { d.alignment } else { vec![1] };
        return Ok(d);
    }
    derive_ranked(spec)
}

fn derive_ranked(spec: &TensorSpec) -> Result<Derived, LayoutError> {
    spec.shape.check_nonzero("shape")?;
    check_sizes(spec)?;
    let rank = spec.shape.rank();
    let (tile, elem) = match (spec.page, spec.dtype.element_size()) {
        (PageConfig::Tile(t), _) => (Some(t), spec.dtype.element_size()),
        (PageConfig::RowMajor, Some(e)) => (None, Some(e)),
        (PageConfig::RowMajor, None) => {
            return Err(LayoutError::Illegal(format!("{} exists only in tiles: use TILE layout", spec.dtype)));
        }
    };
    let pa = match tile {
        Some(t) => [t.height as u64, t.width as u64],
        None => [1, 1],
    };
    let dims = spec.shape.dims();
    let logical_h: u64 = dims[..rank - 1].iter().product::<u64>().max(1);
    let logical_w = dims[rank - 1];
    let (layout, buffer) = match &spec.memory {
        MemoryConfig::Interleaved(b) => (TensorMemoryLayout::Interleaved, *b),
        MemoryConfig::Sharded { layout, buffer, .. } => {
            if *layout == TensorMemoryLayout::Interleaved {
                return Err(LayoutError::Illegal("a sharded memory config needs HEIGHT, WIDTH or BLOCK".into()));
            }
            (*layout, *buffer)
        }
        MemoryConfig::NdSharded { buffer, .. } => (TensorMemoryLayout::BlockSharded, *buffer),
    };
    let sharded_2d = match &spec.memory {
        MemoryConfig::Sharded { spec: s, .. } => Some(s),
        _ => None,
    };
    if let Some(s) = sharded_2d {
        if s.shape[0] == 0 || s.shape[1] == 0 {
            return Err(LayoutError::value(
                "shard",
                format!("{}x{}", s.shape[0], s.shape[1]),
                "shard extents must be at least 1",
            ));
        }
        if s.mode == ShardMode::Physical && tile.is_some() && (s.shape[0] % pa[0] != 0 || s.shape[1] % pa[1] != 0) {
            return Err(LayoutError::Illegal(format!(
                "shard {}x{} is not tile-aligned for TILE layout with {}x{} tiles (use a multiple of the tile, or logical shard mode)",
                s.shape[0], s.shape[1], pa[0], pa[1]
            )));
        }
    }
    // Alignment of the last two dimensions. Row-major sharded specs align to the shard width (or to the
    // physical shard where one is given), as TTNN's row-major page config does.
    let align2 = match sharded_2d {
        Some(s) if tile.is_none() => match s.physical_shape {
            Some(p) if s.mode == ShardMode::Logical => p,
            _ => [1, s.shape[1]],
        },
        Some(s) if s.mode == ShardMode::Physical => match layout {
            TensorMemoryLayout::HeightSharded => [s.shape[0], pa[1]],
            TensorMemoryLayout::WidthSharded => [pa[0], s.shape[1]],
            _ => [s.shape[0], s.shape[1]],
        },
        _ => pa,
    };
    let mut alignment = if align2[0] == 1 && tile.is_none() { vec![align2[1]] } else { align2.to_vec() };
    if let Some(p) = &spec.padded_shape
        && p != &spec.shape
        && sharded_2d.is_none()
    {
        alignment = super::alignment::alignment_of_padded(dims, p.dims());
    }
    // The padded shape: the last two dimensions to the page; a physical shard spec then pads the 2-D shape.
    let padded = match &spec.padded_shape {
        Some(p) => {
            if p.rank() != rank {
                return Err(LayoutError::mismatch("the padded shape has the tensor's rank", p, &spec.shape));
            }
            for (d, (&pv, &lv)) in p.dims().iter().zip(dims).enumerate() {
                if pv < lv {
                    return Err(LayoutError::value(
                        format!("padded shape[{d}]"),
                        pv,
                        format!("at least the logical {lv}"),
                    ));
                }
            }
            p.clone()
        }
        None => {
            // Row-major shards pad the width to the shard width (their alignment).
            let across = if tile.is_none() && sharded_2d.is_some() { *alignment.last().unwrap_or(&1) } else { pa[1] };
            let mut v = dims.to_vec();
            v[rank - 1] = round_up(v[rank - 1], across.max(1));
            if rank >= 2 {
                v[rank - 2] = round_up(v[rank - 2], pa[0]);
            }
            Shape::new(v)
        }
    };
    let pd = padded.dims();
    if pd[rank - 1] % pa[1] != 0 || (rank >= 2 && pd[rank - 2] % pa[0] != 0) {
        return Err(LayoutError::value(
            "padded shape",
            &padded,
            format!("its last two dimensions must be multiples of {}x{}", pa[0], pa[1]),
        ));
    }
    let padded_h = if rank >= 2 { pd[..rank - 1].iter().product::<u64>() } else { pa[0] };
    let padded_w = pd[rank - 1];
    let strides = super::alignment::aligned_strides(dims, &alignment);

    // Shards and the physical shape.
    let (physical, logical_shard, physical_shard, mode) = match sharded_2d {
        None => ([padded_h, padded_w], [0, 0], [0, 0], ShardMode::Physical),
        Some(s) if s.mode == ShardMode::Physical => {
            let ph = if layout == TensorMemoryLayout::WidthSharded { padded_h } else { round_up(padded_h, s.shape[0]) };
            let pw =
                if layout == TensorMemoryLayout::HeightSharded { padded_w } else { round_up(padded_w, s.shape[1]) };
            ([ph, pw], s.shape, s.shape, ShardMode::Physical)
        }
        Some(s) => {
            let ps = match s.physical_shape {
                Some(p) => {
                    if p[0] < s.shape[0] || p[1] < s.shape[1] || p[0] % pa[0] != 0 || p[1] % pa[1] != 0 {
                        return Err(LayoutError::value(
                            "physical shard",
                            format!("{}x{}", p[0], p[1]),
                            format!(
                                "at least the logical shard {}x{} and a multiple of the page {}x{}",
                                s.shape[0], s.shape[1], pa[0], pa[1]
                            ),
                        ));
                    }
                    p
                }
                None => [round_up(s.shape[0], pa[0]), round_up(s.shape[1], pa[1])],
            };
            // Full logical shards take a whole physical shard; the last, partial one pads only to the
            // alignment (the tile; for row-major the physical shard if given, else 1 down and the shard
            // width across).
            let align = match (tile, s.physical_shape) {
                (Some(_), _) => pa,
                (None, Some(p)) => p,
                (None, None) => [1, s.shape[1]],
            };
            let size = |n: u64, logical: u64, physical: u64, align: u64| {
                (n / logical).saturating_mul(physical).saturating_add(round_up(n % logical, align.max(1)))
            };
            let h = size(logical_h, s.shape[0], ps[0], align[0]);
            let w = size(logical_w, s.shape[1], ps[1], align[1]);
            ([h, w], s.shape, ps, ShardMode::Logical)
        }
    };
    if let Some(s) = sharded_2d {
        match layout {
            TensorMemoryLayout::HeightSharded if physical_shard[1] != physical[1] => {
                return Err(LayoutError::Illegal(format!(
                    "HEIGHT_SHARDED shards hold whole rows: the shard is {} wide but the tensor {} (shard {}x{})",
                    physical_shard[1], physical[1], s.shape[0], s.shape[1]
                )));
            }
            TensorMemoryLayout::WidthSharded if physical_shard[0] != physical[0] => {
                return Err(LayoutError::Illegal(format!(
                    "WIDTH_SHARDED shards hold whole columns: the shard is {} tall but the tensor {} (shard {}x{})",
                    physical_shard[0], physical[0], s.shape[0], s.shape[1]
                )));
            }
            _ => {}
        }
    }
    // With every extent 32-bit and the volume bounded (`check_sizes`), the padded 2-D shape fits 64 bits;
    // bound its area so that the page arithmetic below does too.
    let area = u128::from(physical[0]) * u128::from(physical[1]);
    if area > u128::from(MAX_PHYSICAL_ELEMENTS) {
        return Err(LayoutError::value(
            "padded 2-D shape",
            format!("{}x{} ({area} elements, shard padding included)", physical[0], physical[1]),
            format!("at most {MAX_PHYSICAL_ELEMENTS} elements (2^48); use a smaller tensor or shard"),
        ));
    }
    // Pages.
    let page_shape = match (tile, &spec.memory) {
        (Some(t), _) => [t.height as u64, t.width as u64],
        (None, MemoryConfig::Interleaved(_)) => [1, physical[1]],
        (None, MemoryConfig::Sharded { .. }) => [1, physical_shard[1]],
        (None, MemoryConfig::NdSharded { spec: nd, .. }) => [1, nd.shape.dim(-1)],
    };
    let page_size = match tile {
        Some(t) => t.tile_size(spec.dtype.data_format()) as u64,
        None => page_shape[1] * elem.expect("row-major types have an element size"),
    };
    let num_pages = (physical[0] / page_shape[0]) * physical[1].div_ceil(page_shape[1]);
    let tensor_pages = Shape::new(vec![physical[0] / page_shape[0], physical[1].div_ceil(page_shape[1])]);
    let (distribution, cores, num_shards, lss, pss) = match &spec.memory {
        MemoryConfig::Interleaved(_) => (Distribution::interleaved(num_pages, 1), Vec::new(), None, None, None),
        MemoryConfig::Sharded { spec: s, .. } => {
            let shard_pages =
                Shape::new(vec![physical_shard[0] / page_shape[0], physical_shard[1].div_ceil(page_shape[1])]);
            let cores = corerange_to_cores(&s.grid, None, s.orientation == ShardOrientation::RowMajor);
            let d = ShardDistribution::new(
                tensor_pages,
                shard_pages,
                cores.len().max(1) as u32,
                DistributionStrategy::RoundRobin1D,
            )?;
            if d.num_shards() > cores.len() as u64 {
                return Err(LayoutError::Illegal(format!(
                    "{layout}: {} shards of {}x{} need {} cores but the grid {} has {}",
                    d.num_shards(),
                    s.shape[0],
                    s.shape[1],
                    d.num_shards(),
                    s.grid,
                    cores.len()
                )));
            }
            let n = d.num_shards();
            (Distribution::Sharded(d), cores, Some(n), Some(s.shape.to_vec()), Some(physical_shard.to_vec()))
        }
        MemoryConfig::NdSharded { spec: nd, .. } => {
            if nd.shape.rank() != rank {
                return Err(LayoutError::mismatch("the N-D shard has the tensor's rank", &nd.shape, &spec.shape));
            }
            let mut shard = nd.shape.dims().to_vec();
            shard[rank - 1] = round_up(shard[rank - 1], pa[1]);
            if rank >= 2 {
                shard[rank - 2] = round_up(shard[rank - 2], pa[0]);
            }
            let b = BufferDistributionSpec::from_shard_spec(
                &padded,
                &Shape::new(shard.clone()),
                page_shape,
                &nd.grid,
                nd.orientation,
                nd.strategy,
            )?;
            let n = b.distribution().num_shards();
            let cores = b.cores.clone();
            (
                Distribution::Sharded(b.distribution().clone()),
                cores,
                Some(n),
                Some(nd.shape.dims().to_vec()),
                Some(shard),
            )
        }
    };
    Ok(Derived {
        logical_shape: spec.shape.clone(),
        padded_shape: padded,
        physical_shape: physical,
        alignment,
        strides,
        page_shape,
        page_size,
        aligned_page_size: round_up(page_size, spec.bank_alignment),
        num_pages,
        layout,
        buffer,
        logical_shard_shape: lss,
        physical_shard_shape: pss,
        num_shards,
        cores,
        distribution,
        mode,
        logical_2d: [logical_h, logical_w],
        logical_shard,
        physical_shard,
        tiled: tile,
    })
}

impl Derived {
    /// The physical `(row, column)` of logical element `index`.
    fn physical_of(&self, index: &[u64]) -> (u64, u64) {
        let dims = self.logical_shape.dims();
        let rank = dims.len();
        if rank == 0 {
            return (0, 0);
        }
        let col = index[rank - 1];
        match self.mode {
            ShardMode::Logical if self.logical_shard[0] > 0 => {
                let lrow = index[..rank - 1].iter().zip(&dims[..rank - 1]).fold(0, |a, (&i, &d)| a * d + i);
                let (sh, sw) = (self.logical_shard[0], self.logical_shard[1]);
                let (ph, pw) = (self.physical_shard[0], self.physical_shard[1]);
                ((lrow / sh) * ph + lrow % sh, (col / sw) * pw + col % sw)
            }
            _ => {
                let pd = self.padded_shape.dims();
                let row = index[..rank - 1].iter().zip(&pd[..rank - 1]).fold(0, |a, (&i, &d)| a * d + i);
                (row, col)
            }
        }
    }

    /// The host page holding logical element `index` and the element's position in the page (face order
    /// inside a tile, the column inside a row-major page).
    pub fn element_page(&self, index: &[u64]) -> (u64, u64) {
        let (r, c) = self.physical_of(index);
        let [ph, pw] = self.page_shape;
        let per_row = self.physical_shape[1].div_ceil(pw);
        let page = (r / ph) * per_row + c / pw;
        let off = match self.tiled {
            Some(t) => t.offset((r % ph) as u32, (c % pw) as u32) as u64,
            None => c % pw,
        };
        (page, off)
    }

    /// Whether host page `page` holds at least one logical element.
    pub fn page_has_data(&self, page: u64) -> bool {
        let [ph, pw] = self.page_shape;
        let per_row = self.physical_shape[1].div_ceil(pw);
        let (pr, pc) = (page / per_row, page % per_row);
        let rows = (pr * ph..(pr + 1) * ph).any(|r| self.row_is_logical(r));
        let cols = (pc * pw..((pc + 1) * pw).min(self.physical_shape[1])).any(|c| self.col_is_logical(c));
        rows && cols
    }

    fn row_is_logical(&self, r: u64) -> bool {
        match self.mode {
            ShardMode::Logical if self.logical_shard[0] > 0 => {
                let (sh, ph) = (self.logical_shard[0], self.physical_shard[0]);
                let within = r % ph;
                within < sh && (r / ph) * sh + within < self.logical_2d[0]
            }
            _ => {
                // Decompose the physical row over the padded outer dimensions.
                let dims = self.logical_shape.dims();
                let pd = self.padded_shape.dims();
                let rank = dims.len();
                if rank < 2 {
                    return r == 0;
                }
                let mut rest = r;
                for d in (0..rank - 1).rev() {
                    let i = rest % pd[d];
                    if i >= dims[d] {
                        return false;
                    }
                    rest /= pd[d];
                }
                rest == 0
            }
        }
    }

    fn col_is_logical(&self, c: u64) -> bool {
        match self.mode {
            ShardMode::Logical if self.logical_shard[1] > 0 => {
                let (sw, pw) = (self.logical_shard[1], self.physical_shard[1]);
                let within = c % pw;
                within < sw && (c / pw) * sw + within < self.logical_2d[1]
            }
            _ => c < self.logical_2d[1],
        }
    }

    /// Per core (in `cores` order), the host page of each of its page slots; `None` for padding (a slot with
    /// no page, or a page holding no logical element).
    pub fn pages(&self) -> Vec<Vec<Option<u64>>> {
        self.distribution
            .bank_pages()
            .into_iter()
            .map(|slots| slots.into_iter().map(|p| p.filter(|&p| self.page_has_data(p))).collect())
            .collect()
    }
}

impl Derived {
    /// A picture of the physical 2-D shape in pages, each page in the colour of its core (sharded) or bank
    /// (interleaved over `banks`), labelled with its host page number; pages without data hatched. Pages of
    /// large tensors (over 40000 pages) carry no label.
    pub fn picture(&self, banks: u32) -> crate::svg::Picture {
        use crate::svg::{Cell, Picture};
        let [ph, pw] = self.page_shape;
        let rows = self.physical_shape[0] / ph;
        let cols = self.physical_shape[1].div_ceil(pw);
        let mut cells = Vec::new();
        let owners: Vec<String> = if self.cores.is_empty() {
            (0..banks.max(1)).map(|b| format!("bank {b}")).collect()
        } else {
            self.cores.iter().map(|c| format!("({},{})", c.x, c.y)).collect()
        };
        let many = rows * cols > 40_000;
        for r in 0..rows {
            for c in 0..cols {
                let page = r * cols + c;
                let owner = match &self.distribution {
                    Distribution::Interleaved { .. } => Some((page % banks.max(1) as u64) as usize),
                    d => d.locate(page).map(|l| l.bank as usize),
                };
                cells.push(Cell {
                    x: c * pw,
                    y: r * ph,
                    w: pw,
                    h: ph,
                    owner,
                    label: (!many).then(|| page.to_string()),
                    padding: !self.page_has_data(page),
                });
            }
        }
        Picture {
            title: format!(
                "{} {} over {} ({} pages of {}x{}), padding hatched",
                self.logical_shape,
                self.layout,
                if self.cores.is_empty() { format!("{banks} banks") } else { format!("{} cores", self.cores.len()) },
                self.num_pages,
                ph,
                pw
            ),
            width: self.physical_shape[1],
            height: self.physical_shape[0],
            cells,
            owners,
        }
    }
}

/// The shard spec tt-mlir derives for a virtual grid `rows × cols` over a tensor: the physical 2-D shape
/// divided by the grid (rounding up to the page), on the grid's cores — the rectangle itself when it fits
/// `device` (columns × rows), else the first `rows × cols` cores of `device` row by row (a 1×64 virtual grid
/// on an 8×8 chip is width sharding over all 64 cores). The memory layout follows the grid's shape unless
/// given.
pub fn virtual_grid_spec(
    physical: [u64; 2],
    page: [u64; 2],
    rows: u32,
    cols: u32,
    device: CoreCoord,
    layout: Option<TensorMemoryLayout>,
) -> Result<(TensorMemoryLayout, ShardSpec), LayoutError> {
    if rows == 0 || cols == 0 {
        return Err(LayoutError::value("virtual grid", format!("{rows}x{cols}"), "both extents at least 1"));
    }
    let layout = layout.unwrap_or(match (rows, cols) {
        (1, c) if c > 1 => TensorMemoryLayout::WidthSharded,
        (r, 1) if r > 1 => TensorMemoryLayout::HeightSharded,
        _ => TensorMemoryLayout::BlockSharded,
    });
    let shape =
        [round_up(physical[0].div_ceil(rows as u64), page[0]), round_up(physical[1].div_ceil(cols as u64), page[1])];
    let grid = if cols <= device.x && rows <= device.y {
        CoreRangeSet::from(CoreRange::new(CoreCoord::new(0, 0), CoreCoord::new(cols - 1, rows - 1)))
    } else {
        num_cores_to_corerangeset(rows * cols, device, true)?
    };
    Ok((
        layout,
        ShardSpec {
            grid,
            shape,
            orientation: ShardOrientation::RowMajor,
            mode: ShardMode::Physical,
            physical_shape: None,
        },
    ))
}

/// A 2-D (legacy) shard spec as the rank-2 N-D spec over the tensor's collapsed 2-D shape.
pub fn legacy_to_nd(s: &ShardSpec) -> super::NdShardSpec {
    super::NdShardSpec {
        shape: Shape::new(vec![s.shape[0], s.shape[1]]),
        grid: s.grid.clone(),
        orientation: s.orientation,
        strategy: DistributionStrategy::RoundRobin1D,
    }
}

/// The 2-D (legacy) shard spec of an N-D one, when its shards are contiguous row ranges of the collapsed
/// 2-D shape: the shard covers whole extents of the tensor inside its first non-unit outer dimension. `None`
/// when no 2-D spec describes the same shards.
pub fn nd_to_legacy(tensor: &Shape, nd: &super::NdShardSpec) -> Option<ShardSpec> {
    let (t, s) = (tensor.dims(), nd.shape.dims());
    let r = t.len();
    if r != s.len() || r < 2 {
        return None;
    }
    let first = (0..r - 1).find(|&k| s[k] != 1).unwrap_or(r - 1);
    if (first + 1..r - 1).any(|k| s[k] != t[k]) {
        return None;
    }
    let h: u64 = s[..r - 1].iter().product();
    Some(ShardSpec {
        grid: nd.grid.clone(),
        shape: [h, s[r - 1]],
        orientation: nd.orientation,
        mode: ShardMode::Physical,
        physical_shape: None,
    })
}

/// The core set `--num-cores N --grid-size CxR [--col-wise]` names (`num_cores_to_corerangeset`).
pub fn cores_from_count(n: u32, grid: CoreCoord, col_wise: bool) -> Result<CoreRangeSet, LayoutError> {
    if n == 0 {
        return Err(LayoutError::value("num-cores", 0, "at least 1"));
    }
    num_cores_to_corerangeset(n, grid, !col_wise)
}
