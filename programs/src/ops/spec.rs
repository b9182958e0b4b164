//! The short placement syntax of `tensim run reshard --from SPEC --to SPEC`:
//!
//! ```text
//! SPEC   := MEMORY ":" KIND [":" GRID [":" ORIENT]]
//! MEMORY := dram | l1
//! KIND   := interleaved | height | width | block
//! GRID   := RxC      (rows x columns of cores, or of DRAM banks: height 8x1 or 2x4 = 8 cores)
//! ORIENT := row | col
//! ```
//!
//! `dram:interleaved`, `l1:height:8x1`, `l1:block:4x4:col`, `dram:width:1x6`. Shards are the 2-D tensor
//! divided by the grid (height: by the number of cores; width: likewise; block: rows by R, columns by C),
//! rounded up to whole pages. L1 cores are a rectangle from (0,0) when the grid fits the compute grid, else
//! the first R·C cores row by row; DRAM shards go to banks 0..R·C.

use layout::core_ranges::{CoreCoord, CoreRange, CoreRangeSet};
use layout::placement::{ShardOrientation, TensorMemoryLayout};
use layout::ttnn::{BufferKind, MemoryConfig, ShardMode, ShardSpec};

/// A parsed placement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    /// L1 or DRAM.
    pub buffer: BufferKind,
    /// Interleaved or a sharding.
    pub layout: TensorMemoryLayout,
    /// Grid rows × columns (sharded only).
    pub grid: (u32, u32),
    /// Order of cores.
    pub orientation: ShardOrientation,
}

impl std::str::FromStr for Placement {
    type Err = String;
    fn from_str(text: &str) -> Result<Placement, String> {
        let parts: Vec<&str> = text.split(':').collect();
        let usage = "MEMORY:KIND[:RxC[:row|col]], e.g. dram:interleaved, l1:height:8x1, l1:block:4x4:col";
        if parts.len() < 2 || parts.len() > 4 {
            return Err(format!("`{text}` is not a placement: expected {usage}"));
        }
        let buffer = match parts[0] {
            "dram" => BufferKind::Dram,
            "l1" => BufferKind::L1,
            m => return Err(format!("`{text}`: memory `{m}` is not dram or l1")),
        };
        let layout = match parts[1] {
            "interleaved" => TensorMemoryLayout::Interleaved,
            "height" => TensorMemoryLayout::HeightSharded,
            "width" => TensorMemoryLayout::WidthSharded,
            "block" => TensorMemoryLayout::BlockSharded,
            k => return Err(format!("`{text}`: `{k}` is not interleaved, height, width or block")),
        };
        if layout == TensorMemoryLayout::Interleaved {
            if parts.len() > 2 {
                return Err(format!("`{text}`: an interleaved placement takes no grid"));
            }
            return Ok(Placement { buffer, layout, grid: (1, 1), orientation: ShardOrientation::RowMajor });
        }
        let grid = match parts.get(2) {
            None => return Err(format!("`{text}`: a sharded placement needs a grid RxC ({usage})")),
            Some(g) => {
                let (r, c) = g.split_once(['x', 'X']).ok_or_else(|| format!("`{text}`: grid `{g}` is not RxC"))?;
                let p = |v: &str| v.parse::<u32>().ok().filter(|&n| n > 0);
                match (p(r), p(c)) {
                    (Some(r), Some(c)) => (r, c),
                    _ => return Err(format!("`{text}`: grid `{g}` needs two whole numbers of at least 1")),
                }
            }
        };
        let orientation = match parts.get(3) {
            None | Some(&"row") => ShardOrientation::RowMajor,
            Some(&"col") => ShardOrientation::ColMajor,
            Some(o) => return Err(format!("`{text}`: orientation `{o}` is not row or col")),
        };
        Ok(Placement { buffer, layout, grid, orientation })
    }
}

impl std::fmt::Display for Placement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let m = if self.buffer == BufferKind::Dram { "dram" } else { "l1" };
        let k = match self.layout {
            TensorMemoryLayout::Interleaved => return write!(f, "{m}:interleaved"),
            TensorMemoryLayout::HeightSharded => "height",
            TensorMemoryLayout::WidthSharded => "width",
            TensorMemoryLayout::BlockSharded => "block",
        };
        let o = if self.orientation == ShardOrientation::ColMajor { ":col" } else { "" };
        write!(f, "{m}:{k}:{}x{}{o}", self.grid.0, self.grid.1)
    }
}

fn round_up(v: u64, a: u64) -> u64 {
    v.div_ceil(a) * a
}

impl Placement {
    /// The memory config of this placement for a tensor of physical 2-D shape `physical` whose shards are
    /// whole multiples of `page` elements (a tile, or 1x1 for row-major data), on a chip whose compute grid is `grid` (columns × rows) with `dram_banks` banks.
    pub fn memory_config(
        &self,
        physical: [u64; 2],
        page: [u64; 2],
        grid: CoreCoord,
        dram_banks: u32,
    ) -> Result<MemoryConfig, String> {
        if self.layout == TensorMemoryLayout::Interleaved {
            return Ok(MemoryConfig::Interleaved(self.buffer));
        }
        let (r, c) = self.grid;
        let n = r * c;
        let shape = match self.layout {
            TensorMemoryLayout::HeightSharded => [round_up(physical[0].div_ceil(n as u64), page[0]), physical[1]],
            TensorMemoryLayout::WidthSharded => [physical[0], round_up(physical[1].div_ceil(n as u64), page[1])],
            _ => [round_up(physical[0].div_ceil(r as u64), page[0]), round_up(physical[1].div_ceil(c as u64), page[1])],
        };
        let cores = match self.buffer {
            BufferKind::Dram => {
                if n > dram_banks {
                    return Err(format!("{self}: {n} DRAM banks asked for, the chip has {dram_banks}"));
                }
                CoreRangeSet::from(CoreRange::new(CoreCoord::new(0, 0), CoreCoord::new(n - 1, 0)))
            }
            BufferKind::L1 => {
                // Block shards go to a rectangle (transposed for column-major orientation).
                let (w, h) = match (self.layout, self.orientation) {
                    (TensorMemoryLayout::BlockSharded, ShardOrientation::ColMajor) => (r, c),
                    (TensorMemoryLayout::BlockSharded, ShardOrientation::RowMajor) => (c, r),
                    _ => (c, r),
                };
                if w <= grid.x && h <= grid.y {
                    CoreRangeSet::from(CoreRange::new(CoreCoord::new(0, 0), CoreCoord::new(w - 1, h - 1)))
                } else if self.layout == TensorMemoryLayout::BlockSharded {
                    return Err(format!(
                        "{self}: a {w}x{h} block of cores does not fit the {}x{} compute grid",
                        grid.x, grid.y
                    ));
                } else if n <= grid.x * grid.y {
                    layout::core_ranges::num_cores_to_corerangeset(n, grid, true).map_err(|e| e.to_string())?
                } else {
                    return Err(format!("{self}: {n} cores asked for, the compute grid has {}", grid.x * grid.y));
                }
            }
        };
        Ok(MemoryConfig::Sharded {
            layout: self.layout,
            buffer: self.buffer,
            spec: ShardSpec {
                grid: cores,
                shape,
                orientation: self.orientation,
                mode: ShardMode::Physical,
                physical_shape: None,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_places() {
        let p: Placement = "l1:block:4x4:col".parse().unwrap();
        assert_eq!(
            (p.layout, p.grid, p.orientation),
            (TensorMemoryLayout::BlockSharded, (4, 4), ShardOrientation::ColMajor)
        );
        assert_eq!(p.to_string(), "l1:block:4x4:col");
        let m = "l1:height:8x1"
            .parse::<Placement>()
            .unwrap()
            .memory_config([1024, 64], [32, 32], CoreCoord::new(8, 8), 12)
            .unwrap();
        match m {
            MemoryConfig::Sharded { spec, .. } => {
                assert_eq!(spec.shape, [128, 64]);
                assert_eq!(spec.grid.num_cores(), 8);
            }
            other => panic!("{other:?}"),
        }
        for bad in [
            "l1",
            "hbm:height:2x2",
            "l1:diagonal:2x2",
            "l1:height",
            "l1:height:0x2",
            "l1:block:2x2:up",
            "dram:interleaved:2x2",
        ] {
            assert!(bad.parse::<Placement>().is_err(), "{bad}");
        }
        assert!(
            "l1:block:9x9"
                .parse::<Placement>()
                .unwrap()
                .memory_config([512, 512], [32, 32], CoreCoord::new(8, 8), 12)
                .is_err()
        );
        assert!(
            "dram:height:13x1"
                .parse::<Placement>()
                .unwrap()
                .memory_config([512, 512], [32, 32], CoreCoord::new(8, 8), 12)
                .is_err()
        );
    }
}
