//! tt-mlir's tensor layout attribute, `#tt.metal_layout` (seed 000): a tensor keeps its logical shape of
//! any rank; an affine map collapses its dimensions onto the rank of a (virtual) grid; the grid divides the
//! collapsed extents (rounding up) into equal shards, which may then be tiled (the shard memref's last two
//! dimensions divided, rounding up, by the tile). Whatever the shards hold beyond the tensor is padding,
//! filled with `oob_val`. Grids may be larger than a chip and of any rank (outer dimensions across chips).

pub mod affine;
pub(crate) mod lex;
pub mod types;

pub use affine::{AffineExpr, AffineMap};
pub use types::{ElementType, MemorySpace, OobVal, TileType};

use crate::error::LayoutError;
use crate::shape::Shape;
use crate::tile::TileShape;

/// The map that collapses the dimension intervals `[start, end)` of a rank-`shape` tensor: each interval
/// becomes one result, `Σ d_k · (product of the extents after k inside the interval)`; dimensions outside
/// every interval stay results of their own. Negative bounds count from the end (`-1` is the last
/// dimension, so the default `[(0, -1)]` collapses everything but the last).
pub fn collapse_map(shape: &Shape, intervals: &[(i64, i64)]) -> Result<AffineMap, LayoutError> {
    let r = shape.rank() as i64;
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for &(s, e) in intervals {
        let norm = |v: i64| if v < 0 { r + v } else { v };
        let (a, b) = (norm(s), norm(e));
        // Equal bounds once normalised: an empty interval, a no-op (a rank-1 tensor's default `(0, -1)`).
        if a == b && (0..=r).contains(&a) {
            continue;
        }
        if a < 0 || b > r || a > b {
            return Err(LayoutError::value(
                "collapse interval",
                format!("({s}, {e})"),
                format!("start before end within the tensor's {r} dimensions (negative values count from the end)"),
            ));
        }
        let (a, b) = (a as usize, b as usize);
        if let Some(o) = spans.iter().find(|o| a < o.1 && o.0 < b) {
            return Err(LayoutError::value(
                "collapse interval",
                format!("({s}, {e})"),
                format!("intervals must not overlap (dimensions {}..{} are already collapsed)", o.0, o.1),
            ));
        }
        spans.push((a, b));
    }
    spans.sort();
    let mut results = Vec::new();
    let mut d = 0;
    while d < shape.rank() {
        match spans.iter().find(|s| s.0 == d) {
            Some(&(a, b)) => {
                let mut terms = Vec::new();
                let mut stride = 1i64;
                for k in (a..b).rev() {
                    terms.push((k, stride));
                    let extent = i64::try_from(shape.dims()[k]).unwrap_or(i64::MAX);
                    stride = stride.checked_mul(extent).ok_or_else(|| {
                        LayoutError::value(
                            "collapsed extent",
                            format!("the product of {shape}'s dimensions {a} to {}", b - 1),
                            format!("at most {} (64-bit integers)", i64::MAX),
                        )
                    })?;
                }
                terms.reverse();
                results.push(AffineExpr { terms, constant: 0 });
                d = b;
            }
            None => {
                results.push(AffineExpr::dim(d));
                d += 1;
            }
        }
    }
    Ok(AffineMap { num_dims: shape.rank(), results })
}

/// A collapsed map with fewer results than the grid has dimensions gets constant-0 results at the front
/// until they match (tt-mlir's rule): a 1-D tensor on a 2-D grid maps `(d0) -> (0, d0)`, those leading
/// extents being 1.
pub fn pad_to_grid(mut map: AffineMap, grid_rank: usize) -> AffineMap {
    while map.results.len() < grid_rank {
        map.results.insert(0, AffineExpr { terms: Vec::new(), constant: 0 });
    }
    map
}

/// What a tt.metal_layout is made from.
#[derive(Debug, Clone, PartialEq)]
pub struct MetalLayoutSpec {
    /// The logical tensor shape.
    pub shape: Shape,
    /// The grid (any rank; the map's result count).
    pub grid: Shape,
    /// Collapse intervals (default `[(0, -1)]`); not together with `map`.
    pub collapse: Option<Vec<(i64, i64)>>,
    /// An explicit map; not together with `collapse`.
    pub map: Option<AffineMap>,
    /// Tile the shards with this tile shape.
    pub tile: Option<TileShape>,
    /// Data type (of the tiles when tiled; block floats need tiles).
    pub dtype: ElementType,
    /// Memory space.
    pub memspace: MemorySpace,
    /// What padding holds.
    pub oob: OobVal,
}

impl Default for MetalLayoutSpec {
    fn default() -> Self {
        MetalLayoutSpec {
            shape: Shape::new(vec![1]),
            grid: Shape::new(vec![1, 1]),
            collapse: None,
            map: None,
            tile: None,
            dtype: ElementType::F32,
            memspace: MemorySpace::DeviceL1,
            oob: OobVal::Undef,
        }
    }
}

/// A tensor's tt.metal_layout with everything derived from it.
#[derive(Debug, Clone, PartialEq)]
pub struct MetalLayout {
    /// The logical shape.
    pub shape: Shape,
    /// The logical (scalar) element type.
    pub scalar: ElementType,
    /// The map from tensor dimensions to grid dimensions.
    pub map: AffineMap,
    /// What padding holds.
    pub oob: OobVal,
    /// The grid.
    pub grid: Shape,
    /// The tile element type, when tiled.
    pub tile: Option<TileType>,
    /// Memory space.
    pub memspace: MemorySpace,
    physical: Vec<u64>,
    shard: Vec<u64>,
}

impl MetalLayout {
    /// Build and check a layout.
    pub fn new(spec: &MetalLayoutSpec) -> Result<MetalLayout, LayoutError> {
        spec.shape.check_nonzero("shape")?;
        spec.grid.check_nonzero("grid")?;
        if spec.grid.rank() == 0 {
            return Err(LayoutError::value("grid", "(none)", "a grid of at least one dimension, e.g. 1x1"));
        }
        // tt-mlir's shapes are 64-bit signed integers.
        for (name, shape) in [("shape", &spec.shape), ("grid", &spec.grid)] {
            if let Some(&d) = shape.dims().iter().find(|&&d| i64::try_from(d).is_err()) {
                return Err(LayoutError::value(name, d, format!("extents of at most {} (64-bit signed)", i64::MAX)));
            }
        }
        let map = match (&spec.map, &spec.collapse) {
            (Some(_), Some(_)) => {
                return Err(LayoutError::Illegal(
                    "give either collapse intervals or an affine map, not both (the map already says how dimensions collapse)".into(),
                ));
            }
            (Some(m), None) => m.clone(),
            (None, Some(c)) => pad_to_grid(collapse_map(&spec.shape, c)?, spec.grid.rank()),
            (None, None) => pad_to_grid(collapse_map(&spec.shape, &[(0, -1)])?, spec.grid.rank()),
        };
        if map.num_dims != spec.shape.rank() {
            return Err(LayoutError::mismatch(
                "the affine map's inputs must be the tensor's dimensions",
                format!("map {map} has {} inputs", map.num_dims),
                format!("tensor {} has rank {}", spec.shape, spec.shape.rank()),
            ));
        }
        if map.results.len() != spec.grid.rank() {
            return Err(LayoutError::mismatch(
                "the affine map's results must match the grid's rank",
                format!("map {map} has {} results", map.results.len()),
                format!("grid {} has rank {}", spec.grid, spec.grid.rank()),
            ));
        }
        let bounds = map.bounds(spec.shape.dims())?;
        if let Some((i, (lo, _))) = bounds.iter().enumerate().find(|(_, b)| b.0 < 0) {
            return Err(LayoutError::value(
                format!("result {i} of {map}"),
                lo,
                "the map must not produce negative coordinates",
            ));
        }
        let physical: Vec<u64> = bounds.iter().map(|b| b.1 as u64 + 1).collect();
        let shard: Vec<u64> = physical.iter().zip(spec.grid.dims()).map(|(p, g)| p.div_ceil(*g)).collect();
        let tile = match spec.tile {
            Some(t) => {
                if spec.grid.rank() < 2 {
                    return Err(LayoutError::value(
                        "grid rank",
                        spec.grid.rank(),
                        "tiles cover the last two dimensions, so the grid needs rank 2 or more",
                    ));
                }
                Some(TileType { shape: t, dtype: spec.dtype })
            }
            None if spec.dtype.is_block_float() => {
                return Err(LayoutError::value(
                    "dtype",
                    spec.dtype,
                    "block floats exist only in tiles; add a tile shape (e.g. 32x32)",
                ));
            }
            None => None,
        };
        let scalar = if spec.dtype.is_block_float() { ElementType::F32 } else { spec.dtype };
        Ok(MetalLayout {
            shape: spec.shape.clone(),
            scalar,
            map,
            oob: spec.oob,
            grid: spec.grid.clone(),
            tile,
            memspace: spec.memspace,
            physical,
            shard,
        })
    }

    /// The collapsed extents before dividing by the grid.
    pub fn physical_shape(&self) -> &[u64] {
        &self.physical
    }

    /// One shard in elements (before tiling).
    pub fn scalar_shard_shape(&self) -> &[u64] {
        &self.shard
    }

    /// One shard as its memref holds it: elements, or tiles in the last two dimensions when tiled.
    pub fn memref_shape(&self) -> Vec<u64> {
        let mut s = self.shard.clone();
        if let Some(t) = self.tile {
            let n = s.len();
            s[n - 2] = s[n - 2].div_ceil(t.shape.height as u64);
            s[n - 1] = s[n - 1].div_ceil(t.shape.width as u64);
        }
        s
    }

    /// One shard in elements including tile padding.
    pub fn padded_shard_shape(&self) -> Vec<u64> {
        let mut s = self.memref_shape();
        if let Some(t) = self.tile {
            let n = s.len();
            s[n - 2] *= t.shape.height as u64;
            s[n - 1] *= t.shape.width as u64;
        }
        s
    }

    /// The grid's dimensions followed by the memref's.
    pub fn device_shape(&self) -> Vec<u64> {
        let mut v = self.grid.dims().to_vec();
        v.extend(self.memref_shape());
        v
    }

    /// Per grid dimension: elements of padding in the last shard along it (tile padding included).
    pub fn padding(&self) -> Vec<u64> {
        let padded = self.padded_shard_shape();
        (0..self.grid.rank())
            .map(|i| {
                let g = self.grid.dims()[i];
                let real_last = self.physical[i].saturating_sub(self.shard[i] * (g - 1));
                padded[i] - real_last.min(padded[i])
            })
            .collect()
    }

    /// The collapsed coordinate of tensor element `index`.
    pub fn index(&self, index: &[u64]) -> Result<Vec<u64>, LayoutError> {
        if index.len() != self.shape.rank() {
            return Err(LayoutError::mismatch(
                "an index has one coordinate per tensor dimension",
                format!("{} coordinates", index.len()),
                format!("rank {}", self.shape.rank()),
            ));
        }
        for (d, (&i, &s)) in index.iter().zip(self.shape.dims()).enumerate() {
            if i >= s {
                return Err(LayoutError::value(format!("index[{d}]"), i, format!("below the extent {s}")));
            }
        }
        let p: Vec<i64> = index.iter().map(|&v| v as i64).collect();
        Ok(self.map.eval(&p).into_iter().map(|v| v as u64).collect())
    }

    /// The shard (grid coordinate) holding tensor element `index`, and its position in the shard.
    pub fn locate(&self, index: &[u64]) -> Result<(Vec<u64>, Vec<u64>), LayoutError> {
        let c = self.index(index)?;
        let g = c.iter().zip(&self.shard).map(|(v, s)| v / s).collect();
        let w = c.iter().zip(&self.shard).map(|(v, s)| v % s).collect();
        Ok((g, w))
    }

    /// Whether position `within` (elements, inside the tile-padded shard) of the shard at `grid` holds
    /// padding rather than a tensor element.
    pub fn is_padding(&self, grid: &[u64], within: &[u64]) -> Result<bool, LayoutError> {
        let padded = self.padded_shard_shape();
        let r = self.grid.rank();
        if grid.len() != r || within.len() != r {
            return Err(LayoutError::mismatch("grid and shard coordinates have the grid's rank", grid.len(), r));
        }
        for d in 0..r {
            if grid[d] >= self.grid.dims()[d] {
                return Err(LayoutError::value(
                    format!("grid[{d}]"),
                    grid[d],
                    format!("below {}", self.grid.dims()[d]),
                ));
            }
            if within[d] >= padded[d] {
                return Err(LayoutError::value(format!("shard[{d}]"), within[d], format!("below {}", padded[d])));
            }
        }
        let mut point = Vec::with_capacity(r);
        for d in 0..r {
            if within[d] >= self.shard[d] {
                return Ok(true);
            }
            let c = grid[d] * self.shard[d] + within[d];
            if c >= self.physical[d] {
                return Ok(true);
            }
            point.push(c as i64);
        }
        Ok(self.map.preimage(&point, self.shape.dims())?.is_none())
    }

    /// A picture of the last two grid dimensions (the first slice of any outer ones): one rectangle per
    /// shard in its grid colour, its padding hatched (the tail of the last shards and tile padding; gaps a
    /// bumped stride leaves inside a shard are not drawn).
    pub fn picture(&self) -> crate::svg::Picture {
        use crate::svg::{Cell, Picture};
        let r = self.grid.rank();
        let (gh, gw) =
            if r >= 2 { (self.grid.dims()[r - 2], self.grid.dims()[r - 1]) } else { (1, self.grid.dims()[0]) };
        let padded = self.padded_shard_shape();
        let (ph, pw) = if r >= 2 { (padded[r - 2], padded[r - 1]) } else { (1, padded[0]) };
        let (sh, sw) = if r >= 2 { (self.shard[r - 2], self.shard[r - 1]) } else { (1, self.shard[0]) };
        let (eh, ew) = if r >= 2 { (self.physical[r - 2], self.physical[r - 1]) } else { (1, self.physical[0]) };
        let mut cells = Vec::new();
        let mut owners = Vec::new();
        for gy in 0..gh {
            for gx in 0..gw {
                let owner = owners.len();
                owners.push(format!("({gy},{gx})"));
                let real_h = eh.saturating_sub(gy * sh).min(sh);
                let real_w = ew.saturating_sub(gx * sw).min(sw);
                let (x, y) = (gx * pw, gy * ph);
                if real_h > 0 && real_w > 0 {
                    cells.push(Cell {
                        x,
                        y,
                        w: real_w,
                        h: real_h,
                        owner: Some(owner),
                        label: Some(format!("{gy},{gx}")),
                        padding: false,
                    });
                }
                if real_w < pw {
                    cells.push(Cell {
                        x: x + real_w,
                        y,
                        w: pw - real_w,
                        h: ph,
                        owner: Some(owner),
                        label: None,
                        padding: true,
                    });
                }
                if real_h < ph && real_w > 0 {
                    cells.push(Cell {
                        x,
                        y: y + real_h,
                        w: real_w,
                        h: ph - real_h,
                        owner: Some(owner),
                        label: None,
                        padding: true,
                    });
                }
            }
        }
        let outer = if r > 2 {
            format!(" (slice 0 of the outer grid dims {})", Shape::new(self.grid.dims()[..r - 2].to_vec()))
        } else {
            String::new()
        };
        Picture {
            title: format!(
                "tensor<{}x{}> on grid <{}>{outer}: shards {}, padding hatched",
                self.shape,
                self.scalar,
                self.grid,
                self.memref()
            ),
            width: gw * pw,
            height: gh * ph,
            cells,
            owners,
        }
    }

    /// The shard memref: `memref<192x32xf32, #tt.memory_space<l1>>`.
    pub fn memref(&self) -> String {
        let dims: Vec<String> = self.memref_shape().iter().map(u64::to_string).collect();
        let elem = match self.tile {
            Some(t) => t.to_string(),
            None => self.scalar.to_string(),
        };
        format!("memref<{}x{elem}, #tt.memory_space<{}>>", dims.join("x"), self.memspace.mlir())
    }

    /// The attribute on one line.
    pub fn attr(&self) -> String {
        format!("#tt.metal_layout<{}, {}, <{}>, {}>", self.map, self.oob, self.grid, self.memref())
    }

    /// The tensor type as seed 000 writes it, over several lines.
    pub fn pretty(&self) -> String {
        format!(
            "tensor<{}x{},\n  #tt.metal_layout<\n    {},\n    {},\n    <{}>,\n    {}\n  >\n>",
            self.shape,
            self.scalar,
            self.map,
            self.oob,
            self.grid,
            self.memref()
        )
    }
}

#[cfg(test)]
mod tests;
