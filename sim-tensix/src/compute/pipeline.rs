//! The three TRISC threads' hand-offs and data paths: DST sections between MATH and PACK
//! (`tile_regs_*`), operand sets between UNPACK and MATH (the two-deep source registers), unpacking CB
//! tiles into operands, and packing DST tiles into CB pages.

use super::*;
use std::sync::Arc;

impl Compute<'_> {
    pub(super) fn wait_count(&mut self, slot: u8, at_least: i64) {
        if at_least <= 0 {
            return;
        }
        let lat = self.cost().handoff();
        self.ctx.wait_for(Wait::Sync { slot, at_least: at_least as u32 }, lat);
    }

    pub(super) fn bump(&mut self, slot: u8) {
        self.ctx.sync_local();
        self.ctx.update_core_touching(Touched::Sync(slot), |c| c.sync[slot as usize] += 1);
    }

    pub(super) fn state<R>(&mut self, f: impl FnOnce(&mut ComputeState) -> R) -> R {
        let mut h = self.ctx.host.borrow_mut();
        let core = h.core_mut(self.ctx.k.core);
        match core.compute.as_mut() {
            Some(s) => f(s),
            None => {
                drop(h);
                self.ctx.fail("compute state missing on this core".into())
            }
        }
    }

    pub(super) fn math_acquire(&mut self) {
        self.ctx.spend(self.cost().sync());
        let sections = self.settings.sections() as i64;
        self.wait_count(SYNC_DST_RELEASED, self.acquires as i64 + 1 - sections);
        self.acquires += 1;
    }

    pub(super) fn math_commit(&mut self) {
        self.ctx.spend(self.cost().sync());
        self.bump(SYNC_DST_COMMITTED);
        self.math_section = (self.math_section + 1) % self.settings.sections();
    }

    pub(super) fn pack_wait(&mut self) {
        self.ctx.spend(self.cost().sync());
        self.wait_count(SYNC_DST_COMMITTED, self.waits as i64 + 1);
        self.waits += 1;
    }

    pub(super) fn pack_release(&mut self) {
        self.ctx.spend(self.cost().sync());
        self.ctx.sync_local();
        let section = self.pack_section;
        self.state(|s| s.clear_section(section));
        self.bump(SYNC_DST_RELEASED);
        self.pack_section = (self.pack_section + 1) % self.settings.sections();
    }

    /// `tile_regs_acquire()` — MATH: wait for a free DST section.
    pub fn tile_regs_acquire(&mut self) {
        if self.role == ComputeRole::Math {
            self.math_acquire();
        }
    }

    /// `tile_regs_commit()` — MATH: hand the section to PACK.
    pub fn tile_regs_commit(&mut self) {
        if self.role == ComputeRole::Math {
            self.math_commit();
        }
    }

    /// `tile_regs_wait()` — PACK: wait for MATH's commit.
    pub fn tile_regs_wait(&mut self) {
        if self.role == ComputeRole::Pack {
            self.pack_wait();
        }
    }

    /// `tile_regs_release()` — PACK: clear the section and give it back to MATH.
    pub fn tile_regs_release(&mut self) {
        if self.role == ComputeRole::Pack {
            self.pack_release();
        }
    }

    /// `acquire_dst()` (deprecated): acquire on MATH, wait on PACK.
    pub fn acquire_dst(&mut self) {
        self.tile_regs_acquire();
        self.tile_regs_wait();
    }

    /// `release_dst()` (deprecated): commit on MATH, release on PACK.
    pub fn release_dst(&mut self) {
        self.tile_regs_commit();
        self.tile_regs_release();
    }

    pub(super) fn tile_addr(&mut self, api: &str, cb: u32, tile: u32) -> (u32, u32, DataFormat) {
        let cbi = self.ctx.cb_index(api, cb);
        self.ctx.cb_checked(api, cbi, 0);
        let risc = self.risc();
        let h = self.ctx.host.borrow();
        let c = h.core(self.ctx.k.core).cb(cbi).expect("checked");
        (c.read_ptr(risc) + tile * c.page_size, c.page_size, c.format)
    }

    /// UNPACK: read tiles `(cb, index from the front)` into the source registers as one operand set.
    /// Tiles at positions `transpose_from..` are transposed on the way in (in1 of a transposed matmul, a
    /// transposed copy); `usize::MAX` transposes none.
    pub(super) fn unpack(&mut self, api: &str, kind: SrcKind, reads: &[(u32, u32)], transpose_from: usize) {
        self.unpack_streamed(api, kind, reads, transpose_from, None);
    }

    /// [`Compute::unpack`] of a set that feeds several products: MATH may start once the tiles at positions
    /// `head` (the first product's pair) are in, and the rest of the set streams in behind its products
    /// (the source registers take tile after tile; MATH waits on each bank's data, not on the whole set).
    pub(super) fn unpack_streamed(
        &mut self,
        api: &str,
        kind: SrcKind,
        reads: &[(u32, u32)],
        transpose_from: usize,
        head: Option<[usize; 2]>,
    ) {
        let mut bytes = 0u64;
        let mut head_bytes = 0u64;
        let mut addrs = std::mem::take(&mut self.unpack_addrs);
        addrs.clear();
        // Copies from a CB set to unpack to DST skip the source registers (`UnpackToDestFp32`).
        let copies = matches!(kind, SrcKind::Copy | SrcKind::Datacopy);
        // Consecutive tiles of one CB (a matmul block's rows, say) share its lookup and format check.
        let mut last: Option<(u32, u32, u32, DataFormat, bool)> = None;
        for &(cb, t) in reads {
            let (a, f, to_dest) = match last {
                Some((c, base, page, f, d)) if c == cb => (base + t * page, f, d),
                _ => {
                    let (a0, page, f) = self.tile_addr(api, cb, 0);
                    self.check_unpack_format(api, cb, f);
                    let to_dest = copies && self.unpack_to_dest(api, cb, f);
                    last = Some((cb, a0, page, f, to_dest));
                    (a0 + t * page, f, to_dest)
                }
            };
            if head.is_some_and(|h| h.contains(&addrs.len())) {
                head_bytes += f.tile_size() as u64;
            }
            bytes += f.tile_size() as u64;
            addrs.push((a, f, to_dest));
        }
        let int_bits = addrs.first().is_some_and(|&(_, f, d)| d && f.is_32bit_int());
        let full = self.cost().unpack(reads.len(), bytes);
        let first = match head {
            Some(_) => self.cost().unpack(2, head_bytes).min(full),
            None => full,
        };
        self.ctx.spend(first);
        self.wait_count(SYNC_SRC_POPPED, self.pushes as i64 + 1 - SRC_DEPTH as i64);
        self.ctx.sync_local();
        let rest = full - first;
        let ready = self.ctx.now() + rest;
        let core = self.ctx.k.core;
        if !self.data {
            // Timing only: the operands' costs and hand-offs stay, their values do not matter.
            let count = addrs.len();
            self.state(|s| s.src.push_back(SrcEntry { kind, tiles: Vec::new(), count, ready, int_bits }));
            self.unpack_addrs = addrs;
            self.pushes += 1;
            self.bump(SYNC_SRC_PUSHED);
            self.ctx.spend(rest);
            return;
        }
        let result: Result<(), String> = {
            let mut h = self.ctx.host.borrow_mut();
            let tc = h.core_mut(core);
            let mut tiles = tc.compute.as_mut().expect("compute core").tile_list();
            let mut err = None;
            for (i, &(a, f, to_dest)) in addrs.iter().enumerate() {
                let size = f.tile_size() as u64;
                if let Err(e) = tc.l1.check(a as u64, size) {
                    err = Some(format!("{api}: {e}"));
                    break;
                }
                // Operands reused across products (a matmul block) are decoded once while their L1 bytes
                // stay unchanged; the result is the same either way. Copies into DST are used once
                // (a matmul's partials reloaded, say), so they stay out of the cache instead of pushing
                // reused operands out of it.
                let transposed = i >= transpose_from;
                let version = tc.l1.version(a as u64, size);
                let st = tc.compute.as_mut().expect("compute core");
                let cache = !matches!(kind, SrcKind::Copy | SrcKind::Datacopy);
                if cache && let Some(t) = st.cached_tile(a, version, f, transposed) {
                    tiles.push(t);
                    continue;
                }
                // Bytes another core received from the same multicast may have been decoded there.
                let tag = if cache && st.shares_tiles() { tc.l1.content_tag(a as u64, size) } else { None };
                if let Some(t) = tag.and_then(|tag| st.shared_tile(tag, a, f, transposed)) {
                    st.remember_tile(a, version, f, transposed, t.clone());
                    tiles.push(t);
                    continue;
                }
                let mut t = st.tile();
                let bytes = tc.l1.read(a as u64, size).expect("checked");
                {
                    let tm = Arc::get_mut(&mut t).expect("a scratch tile is not shared");
                    if f == DataFormat::Float16_b {
                        math::bf16_faces_to_rows(&bytes, tm);
                    } else if to_dest && f.is_32bit_int() {
                        // Straight to 32-bit DST: the integers' bits, as they are.
                        let mut raw = [0f32; 1024];
                        for (o, e) in raw.iter_mut().zip(bytes.chunks_exact(4)) {
                            *o = f32::from_bits(u32::from_le_bytes([e[0], e[1], e[2], e[3]]));
                        }
                        faces_to_rows(&raw, tm);
                    } else {
                        let mut raw = [0f32; 1024];
                        decode_tile(f, &bytes, &mut raw);
                        faces_to_rows(&raw, tm);
                    }
                }
                if transposed {
                    let mut tt = st.tile();
                    math::transpose(Arc::get_mut(&mut tt).expect("a scratch tile is not shared"), &t);
                    st.recycle(vec![t]);
                    t = tt;
                }
                if !f.exact_in_src_registers() && !to_dest {
                    to_src_precision(Arc::get_mut(&mut t).expect("a scratch tile is not shared"));
                }
                if cache {
                    st.remember_tile(a, version, f, transposed, t.clone());
                }
                if let Some(tag) = tag {
                    st.share_tile(tag, a, f, transposed, &t);
                }
                tiles.push(t);
            }
            match err {
                Some(e) => Err(e),
                None => {
                    let count = tiles.len();
                    let entry = SrcEntry { kind, tiles, count, ready, int_bits };
                    tc.compute.as_mut().expect("compute core").src.push_back(entry);
                    Ok(())
                }
            }
        };
        self.unpack_addrs = addrs;
        if let Err(e) = result {
            self.ctx.fail(e);
        }
        self.pushes += 1;
        self.bump(SYNC_SRC_PUSHED);
        self.ctx.spend(rest);
    }

    /// MATH: take the next operand set, which must be for `api`.
    pub(super) fn take(&mut self, api: &str, matches: impl Fn(&SrcKind) -> bool) -> SrcEntry {
        self.wait_count(SYNC_SRC_PUSHED, self.pops as i64 + 1);
        self.ctx.sync_local();
        let e = self.state(|s| s.src.pop_front());
        self.pops += 1;
        self.bump(SYNC_SRC_POPPED);
        match e {
            Some(e) if matches(&e.kind) => e,
            Some(e) => self.ctx.fail(
                format!(
                    "{api}: the compute threads are out of step: MATH runs {api} but UNPACK unpacked for {} (role-dependent control flow?)",
                    e.kind.api()
                ),
            ),
            None => self.ctx.fail(format!("{api}: no operands were unpacked")),
        }
    }

    pub(super) fn dst_check(&self, api: &str, idx: u32) {
        let cap = self.settings.capacity();
        if idx >= cap {
            self.ctx.fail(format!(
                "{api}: DST index {idx} is over the capacity of {cap} tiles (fp32_dest_acc_en={}, dst_full_sync_en={})",
                self.settings.fp32_dest_acc, self.settings.dst_full_sync
            ));
        }
    }

    pub(super) fn math_slot(&self, api: &str, idx: u32) -> usize {
        self.dst_check(api, idx);
        self.settings.slot(self.math_section, idx)
    }

    /// Update DST tile `slot` in place (`f` gets the tile, fp32 DST, fidelity phases). Timing-only runs
    /// skip it: no cost depends on DST's values, and nothing reads them (pack writes no L1 then).
    pub(super) fn dst_write(&mut self, slot: usize, f: impl FnOnce(&mut Tile, bool, u32)) {
        if !self.data {
            return;
        }
        let fp32 = self.settings.fp32_dest_acc;
        let phases = self.settings.fidelity_phases;
        self.state(|s| f(&mut s.dst_mut(slot), fp32, phases));
    }

    /// Overwrite every value of DST tile `slot` without reading it (`f` as for [`Compute::dst_write`],
    /// skipped as it is in timing-only runs).
    pub(super) fn dst_overwrite(&mut self, slot: usize, f: impl FnOnce(&mut Tile, bool, u32)) {
        if !self.data {
            return;
        }
        let fp32 = self.settings.fp32_dest_acc;
        let phases = self.settings.fidelity_phases;
        self.state(|s| f(&mut s.dst_overwrite(slot), fp32, phases));
    }

    pub(super) fn pack_one(&mut self, api: &str, dst: u32, cb: u32, out_index: Option<u32>) {
        self.dst_check(api, dst);
        let cbi = self.ctx.cb_index(api, cb);
        self.ctx.cb_checked(api, cbi, 0);
        let format = {
            let h = self.ctx.host.borrow();
            h.core(self.ctx.k.core).cb(cbi).expect("checked").format
        };
        self.check_pack_format(api, cb, format);
        self.ctx.spend(self.cost().pack(format.tile_size() as u64));
        self.ctx.sync_local();
        let risc = self.risc();
        let slot = self.settings.slot(self.pack_section, dst);
        let core = self.ctx.k.core;
        let (data, l1_acc) = (self.data, self.l1_acc);
        let key = self.ctx.key();
        let r: Result<(), String> = {
            let mut h = self.ctx.host.borrow_mut();
            let tc = h.core_mut(core);
            let cbv = tc.cb(cbi).expect("checked");
            let index = out_index.unwrap_or_else(|| cbv.tile_write_index(risc));
            let (free, format, page, wp) = (cbv.pages_free_at(key), cbv.format, cbv.page_size, cbv.write_ptr(risc));
            if free < index as i64 + 1 {
                Err(format!(
                    "{api}(dst {dst}, c_{cbi}): c_{cbi} has no room for page {index}: {} of {} pages free; call cb_reserve_back first",
                    free.max(0),
                    cbv.num_pages()
                ))
            } else {
                let addr = wp as u64 + index as u64 * page as u64;
                let st = tc.compute.as_mut().expect("compute core");
                let written = if !data {
                    // Timing only: L1 keeps what it held.
                    tc.l1.check(addr, page as u64)
                } else if l1_acc {
                    match tc.l1.read(addr, format.tile_size() as u64) {
                        Ok(old) => {
                            let old = old.to_vec();
                            let bytes = st.accumulate_dst(slot, format, &old);
                            tc.l1.write(addr, bytes)
                        }
                        Err(e) => Err(e),
                    }
                } else {
                    // Encoded straight into L1 (no copy in between).
                    tc.l1.write_with(addr, format.tile_size() as usize, |out| st.encode_dst_into(slot, format, out))
                };
                match written {
                    Ok(()) => {
                        if out_index.is_none() {
                            tc.cb_mut(cbi).expect("checked").advance_tile_write(risc);
                        }
                        Ok(())
                    }
                    Err(e) => Err(format!("{api}: {e}")),
                }
            }
        };
        if let Err(e) = r {
            self.ctx.fail(e);
        }
        self.ctx.notify_l1();
    }

    /// `pack_tile(dst, cb)`: DST tile into the next page of the CB's reserved region (sequential).
    pub fn pack_tile(&mut self, dst: u32, cb: impl CbId) {
        if self.role == ComputeRole::Pack {
            self.pack_one("pack_tile", dst, cb.cb_index(), None);
        }
    }

    /// `pack_tile<true>(dst, cb, index)`: DST tile into page `index` of the reserved region (out of order).
    pub fn pack_tile_ooo(&mut self, dst: u32, cb: impl CbId, index: u32) {
        if self.role == ComputeRole::Pack {
            self.pack_one("pack_tile", dst, cb.cb_index(), Some(index));
        }
    }

    /// `pack_reconfig_l1_acc(l1_acc_en)` — PACK: while enabled, every packed tile is added to the tile
    /// already at its L1 page instead of overwriting it.
    pub fn pack_reconfig_l1_acc(&mut self, l1_acc_en: u32) {
        if self.role == ComputeRole::Pack {
            self.ctx.spend(self.cost().init());
            self.l1_acc = l1_acc_en != 0;
        }
    }

    /// `pack_tile_block(dst_start, cb, n)`.
    pub fn pack_tile_block(&mut self, dst: u32, cb: impl CbId, n: u32) {
        if self.role == ComputeRole::Pack {
            for i in 0..n {
                self.pack_one("pack_tile_block", dst + i, cb.cb_index(), None);
            }
        }
    }
}
