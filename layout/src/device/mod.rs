//! tt-mlir's device attribute (seed 003): a device is a view over a system of chips. A logical worker grid
//! of any rank maps through a grid map onto `(device index, core y, core x)`; the device index picks a chip
//! from `chip_ids`. Built from a chip grid and a mesh shape the way tt-mlir's `createWorkerGrid` builds it,
//! or from any user map (transposed, extra-wide, staircase, …) which is then checked: every logical point
//! lands on a core of a chip of the view, and no two points land on the same core.
//!
//! tt-mlir's code and its design document differ on the in-chip coordinate of a mesh-built grid: the code
//! reduces it modulo the mesh extent, the document modulo the chip grid. tensim follows the document (the
//! only one of the two that puts every logical core on a distinct physical core); it also leaves out the
//! document's `(d1 floordiv 8) * 2` term when that mesh dimension is 1, where it is always 0.

pub mod map;

pub use map::{GridExpr, GridMap};

use crate::error::LayoutError;
use crate::metal::MetalLayout;
use std::fmt;

/// A device view: logical grid, its map to `(device index, y, x)`, mesh shape and chips.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceAttr {
    /// The logical worker grid (any rank).
    pub worker_grid: Vec<u64>,
    /// Logical point → (device index, core y, core x).
    pub map: GridMap,
    /// (device index, y, x) → logical point, when known in closed form (mesh-built grids).
    pub inverse: Option<GridMap>,
    /// The mesh shape.
    pub mesh_shape: Vec<u64>,
    /// The chip of each device index, in row-major mesh order.
    pub chip_ids: Vec<u32>,
    /// The per-chip core grid `[rows, cols]` the view is built on.
    pub chip_grid: [u64; 2],
    /// The logical point of every (device index, y, x), row-major; `None` where no logical point lands.
    inverse_table: Vec<Option<u32>>,
}

/// Where one logical grid point lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    /// Index into `chip_ids`.
    pub device: u32,
    /// The chip id.
    pub chip: u32,
    /// Core row on the chip.
    pub y: u64,
    /// Core column on the chip.
    pub x: u64,
}

/// The number of points of a grid or mesh (saturating: a volume past 64 bits is `u64::MAX`, which every
/// limit here refuses).
fn volume(s: &[u64]) -> u64 {
    s.iter().fold(1u64, |v, &d| v.saturating_mul(d))
}

fn value(name: &str, value: impl fmt::Display, expected: impl Into<String>) -> LayoutError {
    LayoutError::Value { name: name.to_string(), value: value.to_string(), expected: expected.into() }
}

fn unflatten(mut i: u64, shape: &[u64]) -> Vec<i64> {
    let mut out = vec![0i64; shape.len()];
    for d in (0..shape.len()).rev() {
        out[d] = (i % shape[d]) as i64;
        i /= shape[d];
    }
    out
}

impl DeviceAttr {
    /// The view tt-mlir builds for `mesh_shape` over chips with a `chip_grid` core grid (`chip_ids` default
    /// `0..volume`): the mesh's last two dimensions concatenate chip grids side by side and top to bottom,
    /// and every leading dimension selects chips.
    pub fn from_mesh(
        chip_grid: [u64; 2],
        mesh_shape: &[u64],
        chip_ids: Option<Vec<u32>>,
    ) -> Result<DeviceAttr, LayoutError> {
        check_common(chip_grid, mesh_shape)?;
        let mut m: Vec<u64> = mesh_shape.to_vec();
        while m.len() < 2 {
            m.push(1);
        }
        let r = m.len();
        let (gy, gx) = (chip_grid[0], chip_grid[1]);
        let mut grid: Vec<u64> = vec![1; r - 2];
        grid.extend([gy, gx]);
        for (g, &k) in grid.iter_mut().zip(&m) {
            *g *= k;
        }
        // Forward: dev, Y, X.
        let d = GridExpr::Dim;
        let mut dev = GridExpr::Const(0);
        let (mut y, mut x) = (d(r - 2), d(r - 1));
        if m[r - 1] > 1 {
            dev = GridExpr::floordiv(d(r - 1), gx as i64);
            x = GridExpr::modulo(d(r - 1), gx as i64);
        }
        let mut stride = m[r - 1] as i64;
        if m[r - 2] > 1 {
            dev = GridExpr::sum(GridExpr::times(GridExpr::floordiv(d(r - 2), gy as i64), stride), dev);
            y = GridExpr::modulo(d(r - 2), gy as i64);
        }
        stride *= m[r - 2] as i64;
        let mut lead = GridExpr::Const(0);
        let mut strides = vec![0i64; r];
        for i in (0..r.saturating_sub(2)).rev() {
            strides[i] = stride;
            lead = GridExpr::sum(GridExpr::times(d(i), stride), lead);
            stride *= m[i] as i64;
        }
        let dev = GridExpr::sum(lead, dev);
        let map = GridMap { num_dims: r, results: vec![dev, y, x] };
        // Inverse over (p0 = dev, p1 = y, p2 = x).
        let p = GridExpr::Dim;
        let mut inv = Vec::with_capacity(r);
        for (i, &stride_i) in strides.iter().enumerate().take(r - 2) {
            inv.push(GridExpr::modulo(GridExpr::floordiv(p(0), stride_i), m[i] as i64));
        }
        let y_inv = if m[r - 2] > 1 {
            let k = GridExpr::modulo(GridExpr::floordiv(p(0), m[r - 1] as i64), m[r - 2] as i64);
            GridExpr::sum(GridExpr::times(k, gy as i64), p(1))
        } else {
            p(1)
        };
        let x_inv = if m[r - 1] > 1 {
            GridExpr::sum(GridExpr::times(GridExpr::modulo(p(0), m[r - 1] as i64), gx as i64), p(2))
        } else {
            p(2)
        };
        inv.push(y_inv);
        inv.push(x_inv);
        let inverse = GridMap { num_dims: 3, results: inv };
        let n = volume(mesh_shape).max(1);
        let chips = chip_ids.unwrap_or_else(|| (0..n as u32).collect());
        DeviceAttr::build(grid, map, Some(inverse), mesh_shape.to_vec(), chips, chip_grid)
    }

    /// A view with a user's `map` over `worker_grid` (checked as described in the module documentation).
    pub fn with_map(
        chip_grid: [u64; 2],
        worker_grid: Vec<u64>,
        map: GridMap,
        mesh_shape: &[u64],
        chip_ids: Option<Vec<u32>>,
    ) -> Result<DeviceAttr, LayoutError> {
        check_common(chip_grid, mesh_shape)?;
        let n = volume(mesh_shape).max(1);
        let chips = chip_ids.unwrap_or_else(|| (0..n as u32).collect());
        DeviceAttr::build(worker_grid, map, None, mesh_shape.to_vec(), chips, chip_grid)
    }

    fn build(
        worker_grid: Vec<u64>,
        map: GridMap,
        inverse: Option<GridMap>,
        mesh_shape: Vec<u64>,
        chip_ids: Vec<u32>,
        chip_grid: [u64; 2],
    ) -> Result<DeviceAttr, LayoutError> {
        if worker_grid.is_empty() || worker_grid.contains(&0) {
            return Err(value("worker grid", fmt_shape(&worker_grid), "every dimension at least 1"));
        }
        if map.num_dims != worker_grid.len() {
            return Err(LayoutError::Mismatch {
                what: "the map's dimensions and the worker grid's rank".into(),
                left: format!("{} ({map})", map.num_dims),
                right: format!("{} ({})", worker_grid.len(), fmt_shape(&worker_grid)),
            });
        }
        if map.results.len() != 3 {
            return Err(value("map", &map, "three results: (device index, core y, core x)"));
        }
        if chip_ids.is_empty() {
            return Err(value("chip ids", "[]", "at least one chip"));
        }
        let n = volume(&mesh_shape).max(1);
        if chip_ids.len() as u64 != n {
            return Err(LayoutError::Mismatch {
                what: "number of chip ids and the mesh volume".into(),
                left: format!("{} chips", chip_ids.len()),
                right: format!("mesh {}", fmt_shape(&mesh_shape)),
            });
        }
        let points = volume(&worker_grid);
        let cores = chip_ids.len() as u64 * chip_grid[0] * chip_grid[1];
        if points > cores {
            return Err(value(
                "worker grid",
                fmt_shape(&worker_grid),
                format!("at most {cores} points: {} chips of {}x{} cores", chip_ids.len(), chip_grid[0], chip_grid[1]),
            ));
        }
        let mut table = vec![None; cores as usize];
        for i in 0..points {
            let pt = unflatten(i, &worker_grid);
            // Named only in errors: formatted on the way out, not for each of up to 2^24 points.
            let where_ = || format!("({})", pt.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", "));
            let Some(r) = map.eval(&pt) else {
                return Err(value(
                    &format!("map {map} at logical point {}", where_()),
                    "a value beyond 64-bit integers",
                    "coordinates that fit 64-bit integers (check the map's coefficients)",
                ));
            };
            let (dev, y, x) = (r[0], r[1], r[2]);
            let outside = dev < 0
                || dev as usize >= chip_ids.len()
                || y < 0
                || y as u64 >= chip_grid[0]
                || x < 0
                || x as u64 >= chip_grid[1];
            if outside {
                return Err(value(
                    &format!("map at logical point {}", where_()),
                    format!("(device {dev}, y {y}, x {x})"),
                    format!(
                        "a device index below {} and a core inside the {}x{} chip grid",
                        chip_ids.len(),
                        chip_grid[0],
                        chip_grid[1]
                    ),
                ));
            }
            let slot = (dev as u64 * chip_grid[0] * chip_grid[1] + y as u64 * chip_grid[1] + x as u64) as usize;
            if let Some(prev) = table[slot] {
                let other = unflatten(u64::from(prev), &worker_grid);
                return Err(value(
                    &format!("map at logical point {}", where_()),
                    format!("(device {dev}, y {y}, x {x})"),
                    format!("a core no other point uses (logical point {other:?} is there too)"),
                ));
            }
            table[slot] = Some(i as u32);
        }
        let attr = DeviceAttr { worker_grid, map, inverse, mesh_shape, chip_ids, chip_grid, inverse_table: table };
        if let Some(inv) = &attr.inverse {
            debug_assert!(attr.check_inverse(inv), "closed-form inverse disagrees with the table");
        }
        Ok(attr)
    }

    fn check_inverse(&self, inv: &GridMap) -> bool {
        (0..volume(&self.worker_grid)).all(|i| {
            let pt = unflatten(i, &self.worker_grid);
            self.map.eval(&pt).and_then(|r| inv.eval(&r)) == Some(pt)
        })
    }

    /// Where logical point `point` lives.
    pub fn locate(&self, point: &[u64]) -> Result<Placement, LayoutError> {
        if point.len() != self.worker_grid.len() || point.iter().zip(&self.worker_grid).any(|(p, g)| p >= g) {
            return Err(value(
                "logical point",
                format!("{point:?}"),
                format!("inside the worker grid {}", fmt_shape(&self.worker_grid)),
            ));
        }
        let pt: Vec<i64> = point.iter().map(|&v| v as i64).collect();
        // Every point of the worker grid was evaluated and found on a core when the view was built.
        let r = self
            .map
            .eval(&pt)
            .ok_or_else(|| value("logical point", format!("{point:?}"), "a point the map sends to a core"))?;
        Ok(Placement { device: r[0] as u32, chip: self.chip_ids[r[0] as usize], y: r[1] as u64, x: r[2] as u64 })
    }

    /// The logical point on core `(y, x)` of device index `device`, if any.
    pub fn logical_at(&self, device: u32, y: u64, x: u64) -> Option<Vec<u64>> {
        if device as usize >= self.chip_ids.len() || y >= self.chip_grid[0] || x >= self.chip_grid[1] {
            return None;
        }
        let slot = (u64::from(device) * self.chip_grid[0] * self.chip_grid[1] + y * self.chip_grid[1] + x) as usize;
        self.inverse_table[slot]
            .map(|i| unflatten(u64::from(i), &self.worker_grid).into_iter().map(|v| v as u64).collect())
    }

    /// Every logical point with its placement, row-major.
    pub fn table(&self) -> Vec<(Vec<u64>, Placement)> {
        (0..volume(&self.worker_grid))
            .map(|i| {
                let pt: Vec<u64> = unflatten(i, &self.worker_grid).into_iter().map(|v| v as u64).collect();
                let p = self.locate(&pt).expect("inside the grid");
                (pt, p)
            })
            .collect()
    }

    /// The shards of a tt.metal_layout on this device: each grid point of the layout (whose grid must have
    /// the device's rank and fit inside the worker grid) with the chip and core holding its shard.
    pub fn place(&self, layout: &MetalLayout) -> Result<Vec<(Vec<u64>, Placement)>, LayoutError> {
        let g = layout.grid.dims();
        if g.len() != self.worker_grid.len() {
            return Err(LayoutError::Mismatch {
                what: "the layout's grid rank and the device's worker grid rank".into(),
                left: fmt_shape(g),
                right: fmt_shape(&self.worker_grid),
            });
        }
        if g.iter().zip(&self.worker_grid).any(|(a, b)| a > b) {
            return Err(LayoutError::Mismatch {
                what: "the layout's grid does not fit the device's worker grid".into(),
                left: fmt_shape(g),
                right: fmt_shape(&self.worker_grid),
            });
        }
        (0..volume(g))
            .map(|i| {
                let pt: Vec<u64> = unflatten(i, g).into_iter().map(|v| v as u64).collect();
                Ok((pt.clone(), self.locate(&pt)?))
            })
            .collect()
    }
}

fn check_common(chip_grid: [u64; 2], mesh_shape: &[u64]) -> Result<(), LayoutError> {
    if chip_grid.contains(&0) || chip_grid.iter().any(|&g| g > 256) {
        return Err(value("chip grid", fmt_shape(&chip_grid), "between 1x1 and 256x256 cores"));
    }
    if mesh_shape.contains(&0) {
        return Err(value("mesh shape", fmt_shape(mesh_shape), "every dimension at least 1"));
    }
    if volume(mesh_shape).saturating_mul(chip_grid[0] * chip_grid[1]) > 1 << 24 {
        return Err(value("mesh shape", fmt_shape(mesh_shape), "at most 2^24 cores over all chips"));
    }
    Ok(())
}

/// `2x8x16`.
pub fn fmt_shape(s: &[u64]) -> String {
    s.iter().map(|v| v.to_string()).collect::<Vec<_>>().join("x")
}

impl fmt::Display for DeviceAttr {
    /// tt-mlir's printed form (the design document's spelling, `#tt.device<…>`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let chips: Vec<String> = self.chip_ids.iter().map(|c| c.to_string()).collect();
        write!(
            f,
            "#tt.device<workerGrid = #tt.grid<{}, {}>, meshShape = {}, chipIds = [{}]>",
            fmt_shape(&self.worker_grid),
            self.map,
            fmt_shape(&self.mesh_shape),
            chips.join(", ")
        )
    }
}

#[cfg(test)]
mod tests;
