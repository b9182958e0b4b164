//! Planning a data move between two placements of the same tensor: which bytes of which source page go to
//! which bytes of which destination page ([`pieces`]), then, on a device, the NoC transfers each executing
//! core issues ([`Run`]), merged where both sides are contiguous.

use layout::ttnn::{Derived, PageConfig, TensorSpec};

/// A byte range copied from a source page to a destination page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    /// Source host page.
    pub src_page: u64,
    /// Byte offset in it.
    pub src_off: u64,
    /// Destination host page.
    pub dst_page: u64,
    /// Byte offset in it.
    pub dst_off: u64,
    /// Bytes.
    pub len: u64,
}

/// The pieces that move a tensor laid out as `src` into the layout `dst` (same shape, data type and page
/// kind). Tiled layouts move whole tiles, so each destination tile must hold exactly the elements of one
/// source tile at the same positions; row-major layouts move row segments of any widths.
pub fn pieces(spec: &TensorSpec, src: &Derived, dst: &Derived) -> Result<Vec<Piece>, String> {
    let shape = &spec.shape;
    let mut idx = vec![0u64; shape.rank()];
    match spec.page {
        PageConfig::Tile(_) => {
            // dst page → (src page, whether every element agreed).
            let mut of: Vec<Option<u64>> = vec![None; dst.num_pages as usize];
            for i in 0..shape.volume() {
                shape.unravel(i, &mut idx);
                let (sp, so) = src.element_page(&idx);
                let (dp, d_o) = dst.element_page(&idx);
                if so != d_o || of[dp as usize].is_some_and(|p| p != sp) {
                    return Err(format!(
                        "not modelled: moving between tile layouts whose tiles hold different elements (element {idx:?} is at offset {so} of source tile {sp} but offset {d_o} of destination tile {dp}); use physical-mode shards or row-major pages"
                    ));
                }
                of[dp as usize] = Some(sp);
            }
            Ok(of
                .iter()
                .enumerate()
                .filter_map(|(dp, sp)| {
                    sp.map(|sp| Piece { src_page: sp, src_off: 0, dst_page: dp as u64, dst_off: 0, len: src.page_size })
                })
                .collect())
        }
        PageConfig::RowMajor => {
            let e = spec.dtype.element_size().expect("row-major types have an element size");
            let mut out: Vec<Piece> = Vec::new();
            for i in 0..shape.volume() {
                shape.unravel(i, &mut idx);
                let (sp, so) = src.element_page(&idx);
                let (dp, d_o) = dst.element_page(&idx);
                let (so, d_o) = (so * e, d_o * e);
                match out.last_mut() {
                    Some(p)
                        if p.src_page == sp
                            && p.dst_page == dp
                            && p.src_off + p.len == so
                            && p.dst_off + p.len == d_o =>
                    {
                        p.len += e
                    }
                    _ => out.push(Piece { src_page: sp, src_off: so, dst_page: dp, dst_off: d_o, len: e }),
                }
            }
            Ok(out)
        }
    }
}

/// One NoC transfer an executing core issues: a read from `(x, y, remote)` into local `local`, or a write
/// from local `local` to `(x, y, remote)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    /// NoC x of the remote side.
    pub x: u32,
    /// NoC y of the remote side.
    pub y: u32,
    /// Remote address.
    pub remote: u64,
    /// Local L1 address.
    pub local: u64,
    /// Bytes.
    pub len: u64,
}

impl Run {
    /// The five table words of the run.
    pub fn words(&self) -> [u32; 5] {
        [self.x, self.y, self.remote as u32, self.local as u32, self.len as u32]
    }
}

/// Append `r` to `runs`, extending the last run when both sides continue it.
pub fn push_run(runs: &mut Vec<Run>, r: Run) {
    if let Some(l) = runs.last_mut()
        && l.x == r.x
        && l.y == r.y
        && l.remote + l.len == r.remote
        && l.local + l.len == r.local
    {
        l.len += r.len;
        return;
    }
    runs.push(r);
}

/// Split `runs` in two halves of about equal bytes (for the two data-movement RISCs of a core).
pub fn halves(runs: &[Run]) -> usize {
    let total: u64 = runs.iter().map(|r| r.len).sum();
    let mut acc = 0;
    for (i, r) in runs.iter().enumerate() {
        if acc * 2 >= total {
            return i;
        }
        acc += r.len;
    }
    runs.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use layout::placement::{ShardOrientation, TensorMemoryLayout};
    use layout::tile::TileShape;
    use layout::ttnn::{BufferKind, DataType, MemoryConfig, ShardMode, ShardSpec};

    fn spec(page: PageConfig, memory: MemoryConfig) -> TensorSpec {
        TensorSpec {
            shape: "64x64".parse().unwrap(),
            dtype: DataType::U32,
            page,
            memory,
            padded_shape: None,
            bank_alignment: 16,
        }
    }

    fn width(w: u64) -> MemoryConfig {
        MemoryConfig::Sharded {
            layout: TensorMemoryLayout::WidthSharded,
            buffer: BufferKind::L1,
            spec: ShardSpec {
                grid: "(0,0)-(3,0)".parse().unwrap(),
                shape: [64, w],
                orientation: ShardOrientation::RowMajor,
                mode: ShardMode::Physical,
                physical_shape: None,
            },
        }
    }

    #[test]
    fn tiles_move_whole_and_rows_move_segments() {
        let t = spec(PageConfig::Tile(TileShape::T32X32), MemoryConfig::Interleaved(BufferKind::Dram));
        let p = pieces(&t, &t.derive().unwrap(), &spec(t.page, width(32)).derive().unwrap()).unwrap();
        assert_eq!(p.len(), 4);
        assert!(p.iter().all(|x| x.src_page == x.dst_page && x.len == 4096));
        // Row-major: 64-element rows (256 bytes) into 16-element shard rows: four pieces per row.
        let r = spec(PageConfig::RowMajor, MemoryConfig::Interleaved(BufferKind::Dram));
        let p = pieces(&r, &r.derive().unwrap(), &spec(r.page, width(16)).derive().unwrap()).unwrap();
        assert_eq!(p.len(), 64 * 4);
        assert_eq!(p[1], Piece { src_page: 0, src_off: 64, dst_page: 1, dst_off: 0, len: 64 });
    }

    #[test]
    fn runs_merge_when_both_sides_continue() {
        let mut v = Vec::new();
        push_run(&mut v, Run { x: 1, y: 1, remote: 100, local: 0, len: 10 });
        push_run(&mut v, Run { x: 1, y: 1, remote: 110, local: 10, len: 5 });
        push_run(&mut v, Run { x: 2, y: 1, remote: 115, local: 15, len: 5 });
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].len, 15);
        assert_eq!(halves(&v), 1);
    }
}
