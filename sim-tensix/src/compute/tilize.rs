//! Tilize and untilize: row-major CB data into tiles and back, each tile with its own DST hand-off.

use super::*;
use layout::format::{decode_element, encode_element};

impl Compute<'_> {
    /// UNPACK: `n` row-major tiles of width `width_tiles` × 32 starting at the CB front, tile `t` at
    /// column block `t`, pushed as datacopy operand sets.
    pub(super) fn unpack_row_major(&mut self, api: &str, cb: u32, n: u32, width_tiles: u32, first_col: u32) {
        for t in 0..n {
            let (base, _page, fmt) = self.tile_addr(api, cb, 0);
            self.check_unpack_format(api, cb, fmt);
            if decode_element(fmt, &[0; 4]).is_none() {
                self.ctx.fail(format!("{api}: c_{cb} holds {fmt}, a block-float format, which has no row-major form"));
            }
            let int_bits = self.unpack_to_dest(api, cb, fmt) && fmt.is_32bit_int();
            let esize = fmt.tile_size() as u64 / 1024;
            self.ctx.spend(self.cost().unpack_row_major(fmt.tile_size() as u64));
            self.wait_count(SYNC_SRC_POPPED, self.pushes as i64 + 1 - SRC_DEPTH as i64);
            self.ctx.sync_local();
            let core = self.ctx.k.core;
            let r: Result<(), String> = {
                let mut h = self.ctx.host.borrow_mut();
                let tc = h.core_mut(core);
                let row_bytes = width_tiles as u64 * 32 * esize;
                let mut tile_rc = tc.compute.as_mut().expect("compute core").tile();
                let tile = std::sync::Arc::get_mut(&mut tile_rc).expect("a scratch tile is not shared");
                let mut err = None;
                for r in 0..32u64 {
                    let a = base as u64 + r * row_bytes + (first_col + t) as u64 * 32 * esize;
                    match tc.l1.read(a, 32 * esize) {
                        Ok(b) => {
                            for j in 0..32 {
                                let e = &b[(j * esize) as usize..((j + 1) * esize) as usize];
                                tile[(r * 32 + j) as usize] = if int_bits {
                                    f32::from_bits(u32::from_le_bytes([e[0], e[1], e[2], e[3]]))
                                } else {
                                    decode_element(fmt, e).expect("checked: not a block float")
                                };
                            }
                        }
                        Err(e) => {
                            err = Some(format!("{api}: {e}"));
                            break;
                        }
                    }
                }
                match err {
                    Some(e) => Err(e),
                    None => {
                        tc.compute.as_mut().expect("compute core").src.push_back(SrcEntry {
                            kind: SrcKind::Datacopy,
                            tiles: vec![tile_rc],
                            count: 1,
                            ready: sim_core::Cycle(0),
                            int_bits,
                        });
                        Ok(())
                    }
                }
            };
            if let Err(e) = r {
                self.ctx.fail(e);
            }
            self.pushes += 1;
            self.bump(SYNC_SRC_PUSHED);
        }
    }

    /// MATH: one datacopy per operand set, each in its own DST section.
    pub(super) fn math_datacopies(&mut self, api: &str, n: u32) {
        for _ in 0..n {
            self.math_acquire();
            let slot = self.math_slot(api, 0);
            let e = self.take(api, |k| *k == SrcKind::Datacopy);
            self.ctx.spend(self.cost().datacopy());
            self.dst_overwrite(slot, |d, fp32, _| math::copy_to_dst(d, &e.tiles[0], fp32));
            let int_bits = e.int_bits;
            self.state(|s| {
                s.set_dst_int_bits(slot, int_bits);
                s.recycle(e.tiles)
            });
            self.math_commit();
        }
    }

    /// `tilize_block(icb, block, ocb)`: `block` tiles' worth of row-major data (32 rows × block·32
    /// columns) from the front of `icb` into `block` tiles in `ocb`.
    pub fn tilize_block(&mut self, icb: impl CbId, block: u32, ocb: impl CbId) {
        let api = "tilize_block";
        match self.role {
            ComputeRole::Unpack => self.unpack_row_major(api, icb.cb_index(), block, block, 0),
            ComputeRole::Math => {
                self.require(api, FpuConfig::Tilize);
                self.math_datacopies(api, block);
            }
            ComputeRole::Pack => {
                for _ in 0..block {
                    self.pack_wait();
                    self.pack_one(api, 0, ocb.cb_index(), None);
                    self.pack_release();
                }
            }
        }
    }

    /// PACK: write DST tile 0 as 32 row-major rows into `ocb` at column block `col` of a `width_tiles`-wide
    /// row-major region, and at row block `row_block`.
    pub(super) fn pack_row_major(&mut self, api: &str, ocb: u32, width_tiles: u32, col: u32, row_block: u32) {
        self.pack_row_major_from(api, 0, ocb, width_tiles, col, row_block);
    }

    /// As `pack_row_major`, from DST tile `dst` of the pack section.
    fn pack_row_major_from(&mut self, api: &str, dst: u32, ocb: u32, width_tiles: u32, col: u32, row_block: u32) {
        self.dst_check(api, dst);
        let cbi = self.ctx.cb_index(api, ocb);
        self.ctx.cb_checked(api, cbi, 0);
        self.ctx.spend(self.cost().pack(2048));
        self.ctx.sync_local();
        let risc = self.risc();
        let slot = self.settings.slot(self.pack_section, dst);
        let core = self.ctx.k.core;
        let r: Result<(), String> = {
            let mut h = self.ctx.host.borrow_mut();
            let tc = h.core_mut(core);
            let cbv = tc.cb(cbi).expect("checked");
            let (fmt, wp) = (cbv.format, cbv.write_ptr(risc));
            let esize = fmt.tile_size() as u64 / 1024;
            let row_bytes = width_tiles as u64 * 32 * esize;
            // The block's rows must lie in the CB: they are not wrapped round its end.
            let (end, limit) = ((row_block as u64 + 1) * 32 * row_bytes + wp as u64, cbv.base as u64 + cbv.size as u64);
            let mut out = if end > limit {
                Err(format!(
                    "{api}: row-major block row {row_block} of {width_tiles}-tile rows ends at L1 {end:#x}, past the end \
                     of c_{ocb} at {limit:#x}: reserve the rows before packing them"
                ))
            } else {
                Ok(())
            };
            let st = tc.compute.as_ref().expect("compute core");
            let int_bits = st.dst_int_bits(slot) && fmt.is_32bit_int();
            let vals: Tile = *st.dst(slot);
            for r in 0..32u64 {
                if out.is_err() {
                    break;
                }
                let mut bytes = vec![0u8; (32 * esize) as usize];
                for (j, e) in bytes.chunks_exact_mut(esize as usize).enumerate() {
                    let v = vals[r as usize * 32 + j];
                    if int_bits {
                        e.copy_from_slice(&v.to_bits().to_le_bytes());
                    } else if !encode_element(fmt, v, e) {
                        out = Err(format!(
                            "{api}: c_{ocb} holds {fmt}, a block-float format, which has no row-major form"
                        ));
                        break;
                    }
                }
                if out.is_err() {
                    break;
                }
                let a = wp as u64 + (row_block as u64 * 32 + r) * row_bytes + col as u64 * 32 * esize;
                if let Err(e) = tc.l1.write(a, &bytes) {
                    out = Err(format!("{api}: {e}"));
                    break;
                }
            }
            out
        };
        if let Err(e) = r {
            self.ctx.fail(e);
        }
        self.ctx.notify_l1();
    }

    /// `untilize_block(icb, full_ct_dim, ocb)`: `full_ct_dim` tiles from the front of `icb` into 32
    /// row-major rows of `full_ct_dim` × 32 values in `ocb`.
    pub fn untilize_block(&mut self, icb: impl CbId, full_ct_dim: u32, ocb: impl CbId) {
        let api = "untilize_block";
        match self.role {
            ComputeRole::Unpack => {
                for t in 0..full_ct_dim {
                    self.unpack(api, SrcKind::Datacopy, &[(icb.cb_index(), t)], usize::MAX);
                }
            }
            ComputeRole::Math => {
                self.require(api, FpuConfig::Untilize);
                self.math_datacopies(api, full_ct_dim);
            }
            ComputeRole::Pack => {
                for t in 0..full_ct_dim {
                    self.pack_wait();
                    self.pack_row_major(api, ocb.cb_index(), full_ct_dim, t, 0);
                    self.pack_release();
                }
            }
        }
    }

    /// `pack_untilize_block<block_ct_dim, full_ct_dim>(icb, block_rt_dim, ocb, block_c_index)`: a
    /// `block_rt_dim × block_ct_dim` block of tiles from `icb` written row-major into `ocb`, whose rows are
    /// `full_ct_dim` tiles wide, at column block `block_c_index`.
    #[allow(clippy::too_many_arguments)]
    pub fn pack_untilize_block(
        &mut self,
        icb: impl CbId,
        block_rt_dim: u32,
        ocb: impl CbId,
        block_ct_dim: u32,
        full_ct_dim: u32,
        block_c_index: u32,
    ) {
        let api = "pack_untilize_block";
        self.check_column_block(api, block_ct_dim, full_ct_dim, block_c_index);
        let n = block_rt_dim * block_ct_dim;
        match self.role {
            ComputeRole::Unpack => {
                for t in 0..n {
                    self.unpack(api, SrcKind::Datacopy, &[(icb.cb_index(), t)], usize::MAX);
                }
            }
            ComputeRole::Math => {
                self.require(api, FpuConfig::Untilize);
                self.math_datacopies(api, n);
            }
            ComputeRole::Pack => {
                for t in 0..n {
                    self.pack_wait();
                    let (r, c) = (t / block_ct_dim, t % block_ct_dim);
                    self.pack_row_major(api, ocb.cb_index(), full_ct_dim, block_c_index * block_ct_dim + c, r);
                    self.pack_release();
                }
            }
        }
    }

    /// A column block `block_c_index` of `block_ct_dim` tiles must lie inside rows of `full_ct_dim` tiles.
    fn check_column_block(&mut self, api: &str, block_ct_dim: u32, full_ct_dim: u32, block_c_index: u32) {
        let end = (block_c_index as u64 + 1) * block_ct_dim as u64;
        if block_ct_dim == 0 || end > full_ct_dim as u64 {
            self.ctx.fail(format!(
                "{api}: column block {block_c_index} of {block_ct_dim} tiles does not lie inside rows of {full_ct_dim} \
                 tiles (block_ct_dim must be positive and (block_c_index + 1) * block_ct_dim at most full_ct_dim)"
            ));
        }
    }

    /// `pack_untilize_dest<block_ct_dim, full_ct_dim>(ocb, block_rt_dim, block_c_index, …, tile_dst_offset)`
    /// (PACK, between `tile_regs_wait` and `tile_regs_release`): a `block_rt_dim × block_ct_dim` block of tiles
    /// already in DST — tile `r · block_ct_dim + c`, counted from `tile_dst_offset` — written row-major into
    /// `ocb`, whose rows are `full_ct_dim` tiles wide, at column block `block_c_index`.
    #[allow(clippy::too_many_arguments)]
    pub fn pack_untilize_dest(
        &mut self,
        ocb: impl CbId,
        block_rt_dim: u32,
        block_ct_dim: u32,
        full_ct_dim: u32,
        block_c_index: u32,
        tile_dst_offset: u32,
    ) {
        let api = "pack_untilize_dest";
        if self.role != ComputeRole::Pack {
            return;
        }
        self.check_column_block(api, block_ct_dim, full_ct_dim, block_c_index);
        for r in 0..block_rt_dim {
            for c in 0..block_ct_dim {
                let dst = tile_dst_offset + r * block_ct_dim + c;
                self.pack_row_major_from(api, dst, ocb.cb_index(), full_ct_dim, block_c_index * block_ct_dim + c, r);
            }
        }
    }
}
