//! A core's compute state shared by its three TRISC threads: the DST register file, the source registers
//! between UNPACK and MATH (a two-deep queue of unpacked operand sets), and the compute configuration.
//!
//! Hand-offs are counting semaphores in [`TensixCore::sync`](crate::hw::core::TensixCore): slot
//! [`SYNC_DST_COMMITTED`] counts DST sections MATH has committed, [`SYNC_DST_RELEASED`] those PACK has
//! released, [`SYNC_SRC_PUSHED`] operand sets UNPACK has pushed and [`SYNC_SRC_POPPED`] those MATH has
//! consumed.

use super::math::{BroadcastType, EltwiseOp, PoolType, ReduceDim, Tile, bf16_rows_to_faces, rows_to_faces};
use super::offload::{DstBank, Offload};
use super::shared::SharedTiles;
use layout::format::{DataFormat, encode_tile};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::{Arc, MutexGuard};

/// Sync slot: DST sections committed by MATH.
pub const SYNC_DST_COMMITTED: u8 = 0;
/// Sync slot: DST sections released by PACK.
pub const SYNC_DST_RELEASED: u8 = 1;
/// Sync slot: operand sets pushed by UNPACK.
pub const SYNC_SRC_PUSHED: u8 = 2;
/// Sync slot: operand sets consumed by MATH.
pub const SYNC_SRC_POPPED: u8 = 3;
/// Operand sets the source registers hold (SrcA/SrcB are double-buffered).
pub const SRC_DEPTH: u32 = 2;
/// Physical DST size in 16-bit tiles.
pub const DST_TILES: usize = 16;

/// How a compute kernel was configured (`ComputeConfig`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ComputeSettings {
    /// Multiply phases: 1 LoFi, 2 HiFi2, 3 HiFi3, 4 HiFi4.
    pub fidelity_phases: u32,
    /// 32-bit DST.
    pub fp32_dest_acc: bool,
    /// DST as one section (otherwise two halves, MATH filling one while PACK drains the other).
    pub dst_full_sync: bool,
    /// SFPU approximate mode.
    pub approx: bool,
    /// CBs whose copies go straight to DST in 32 bits (`UnpackToDestMode::UnpackToDestFp32`), one bit per CB
    /// index: Float32 data keeps its 23 mantissa bits (through the source registers it keeps 10), Int32 and
    /// UInt32 data their 32 bits.
    pub unpack_to_dest_fp32: u64,
}

impl ComputeSettings {
    /// Whether copies from CB `cb` go straight to DST (`UnpackToDestFp32`).
    pub fn unpacks_to_dest(&self, cb: u32) -> bool {
        cb < 64 && self.unpack_to_dest_fp32 >> cb & 1 == 1
    }

    /// DST sections MATH and PACK alternate between.
    pub fn sections(&self) -> u32 {
        if self.dst_full_sync { 1 } else { 2 }
    }

    /// Tiles of one DST section: 8/16 at 16 bits, 4/8 at 32 bits (half/full sync).
    pub fn capacity(&self) -> u32 {
        let full = if self.fp32_dest_acc { 8 } else { 16 };
        full / self.sections()
    }

    /// Storage slots per DST section (a 32-bit tile uses two 16-bit slots on hardware; tensim keeps one f32
    /// tile per slot, so a 32-bit section simply leaves half its slots unused).
    pub fn slots_per_section(&self) -> usize {
        DST_TILES / self.sections() as usize
    }

    /// Storage slot of DST index `idx` in section `section`.
    pub fn slot(&self, section: u32, idx: u32) -> usize {
        section as usize * self.slots_per_section() + idx as usize
    }
}

impl Default for ComputeSettings {
    /// tt-metal's default `ComputeConfig`: HiFi4, 16-bit DST in two halves, exact SFPU.
    fn default() -> Self {
        ComputeSettings {
            fidelity_phases: 4,
            fp32_dest_acc: false,
            dst_full_sync: false,
            approx: false,
            unpack_to_dest_fp32: 0,
        }
    }
}

/// What an operand set is for (checked by MATH against the call it is executing).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SrcKind {
    /// `copy_tile` (A).
    Copy,
    /// `add/sub/mul_tiles` (A, B).
    Eltwise(EltwiseOp, BroadcastType),
    /// `matmul_tiles` (A = in0, B = in1) or `matmul_block` (rt A tiles then ct B tiles).
    Matmul,
    /// `reduce_tile` (A, scaler).
    Reduce(PoolType, ReduceDim),
    /// `transpose_wh_tile` (A).
    Transpose,
    /// `binary_dest_reuse_tiles` (A).
    DestReuse(EltwiseOp),
    /// One tile of `tilize_block`/`untilize_block` (A).
    Datacopy,
    /// `llk_unpack_AB`: a tile in each of SrcA and SrcB for MATH's datacopies.
    UnpackAB,
}

impl SrcKind {
    /// The API call that unpacks it.
    pub fn api(&self) -> &'static str {
        match self {
            SrcKind::Copy => "copy_tile",
            SrcKind::Eltwise(EltwiseOp::Add, _) => "add_tiles",
            SrcKind::Eltwise(EltwiseOp::Sub, _) => "sub_tiles",
            SrcKind::Eltwise(EltwiseOp::Mul, _) => "mul_tiles",
            SrcKind::Matmul => "matmul_tiles/matmul_block",
            SrcKind::Reduce(..) => "reduce_tile",
            SrcKind::Transpose => "transpose_wh_tile",
            SrcKind::DestReuse(_) => "binary_dest_reuse_tiles",
            SrcKind::Datacopy => "tilize/untilize",
            SrcKind::UnpackAB => "llk_unpack_AB",
        }
    }
}

/// One operand set in the source registers.
#[derive(Debug)]
pub struct SrcEntry {
    /// What it is for.
    pub kind: SrcKind,
    /// The tiles, row-major, at source-register precision (shared with the decoded-tile cache); empty in
    /// timing-only runs, where MATH reads no values.
    pub tiles: Vec<Arc<Tile>>,
    /// How many tiles were unpacked (the length of `tiles` when they are kept).
    pub count: usize,
    /// When its last tile is in the source registers: a set that feeds several products is handed to MATH
    /// once its first pair is in, and the rest streams in behind MATH's products.
    pub ready: sim_core::Cycle,
    /// The tiles hold 32-bit integers unpacked straight to DST, as bit patterns (`f32::from_bits`): a copy
    /// keeps them so and PACK writes them back bit for bit to an integer format.
    pub int_bits: bool,
}

/// A CB tile already decoded into source-register form, valid while its L1 bytes keep `version`.
#[derive(Debug)]
struct Decoded {
    addr: u32,
    version: u64,
    format: DataFormat,
    transposed: bool,
    tile: Arc<Tile>,
}

pub use super::offload::TilePool;

/// What an unwritten DST slot reads as.
static ZERO_TILE: Tile = [0.0; 1024];

/// A DST tile being read: zeros for a slot not written since its section was cleared, else the tile.
pub enum DstRead<'a> {
    /// Not written: reads as zeros.
    Zero,
    /// The tile (its products are done).
    Tile(MutexGuard<'a, Tile>),
}

/// DST tile `slot` of `bank` as read (`written`: written since its section was cleared), once the products
/// queued for it are done (the first `need` of the `issued` queued for the core, to `offload`).
fn read_dst<'a>(
    bank: &'a DstBank,
    offload: Option<&Offload>,
    (need, issued): (u64, u64),
    written: bool,
    slot: usize,
) -> DstRead<'a> {
    if !written {
        return DstRead::Zero;
    }
    if let Some(o) = offload {
        o.wait(bank, need, issued);
    }
    DstRead::Tile(bank.lock(slot))
}

impl std::ops::Deref for DstRead<'_> {
    type Target = Tile;
    fn deref(&self) -> &Tile {
        match self {
            DstRead::Zero => &ZERO_TILE,
            DstRead::Tile(t) => t,
        }
    }
}

/// Decoded tiles a core keeps (operands are reused across the products of a matmul block).
const DECODED_TILES: usize = 32;

/// The compute state of one core.
#[derive(Debug)]
pub struct ComputeState {
    /// Configuration.
    pub settings: ComputeSettings,
    /// DST, row-major tiles: a slot not written since its section was last cleared reads as zeros
    /// whatever it holds (see [`ComputeState::dst`]), so clearing a section writes no memory. Shared with
    /// the helper thread computing tile products, when there is one.
    dst: Arc<DstBank>,
    /// The helper thread computing tile products (see [`super::offload`]), if this run has one.
    offload: Option<Rc<Offload>>,
    /// Products queued to the helper for this core.
    issued: u64,
    /// Per DST tile, how many of this core's products were queued up to its last one: a read or write of
    /// the tile waits for those only (products run in order), not for the ones queued since for other
    /// tiles (MATH filling one DST section while PACK reads the other).
    slot_jobs: [u64; DST_TILES],
    /// Decoded tiles of multicast bytes, shared with the run's other cores (see [`super::shared`]).
    shared: Option<Rc<RefCell<SharedTiles>>>,
    /// Whether a DST tile was written since its section was last cleared.
    dst_written: [bool; DST_TILES],
    /// Whether a DST tile holds 32-bit integers as bit patterns (copied there unpacked to DST, or stored by
    /// an SFPI integer store) rather than values: PACK writes those bits to an Int32/UInt32 CB as they are.
    dst_int_bits: [bool; DST_TILES],
    /// Source registers.
    pub src: VecDeque<SrcEntry>,
    /// Scratch tiles no one else holds, for reuse; shared by the run's cores ([`ComputeState::set_pool`]).
    pool: TilePool,
    /// Emptied operand lists, reused (an operand set is unpacked and consumed per FPU call).
    lists: Vec<Vec<Arc<Tile>>>,
    decoded: Vec<Decoded>,
    next_decoded: usize,
    pack_faces: Box<Tile>,
    pack_bytes: Vec<u8>,
}

impl ComputeState {
    /// A cleared compute state.
    pub fn new(settings: ComputeSettings) -> ComputeState {
        ComputeState {
            settings,
            dst: DstBank::new(DST_TILES),
            offload: None,
            issued: 0,
            slot_jobs: [0; DST_TILES],
            shared: None,
            dst_written: [false; DST_TILES],
            dst_int_bits: [false; DST_TILES],
            src: VecDeque::new(),
            pool: TilePool::default(),
            lists: Vec::new(),
            decoded: Vec::with_capacity(DECODED_TILES),
            next_decoded: 0,
            pack_faces: Box::new([0f32; 1024]),
            pack_bytes: Vec::new(),
        }
    }

    /// Compute this core's tile products on `offload`'s helper thread from now on.
    pub fn set_offload(&mut self, offload: Rc<Offload>) {
        self.settle();
        self.offload = Some(offload);
    }

    /// Draw scratch tiles from `pool` and return them to it from now on: one pool for all the run's cores,
    /// since a tile decoded on one core and shared with others is often released last on another (with a
    /// pool per core, the receivers' pools would grow while the decoders allocated: 75 000 new tiles and as
    /// many page faults in the 4096³ matmul example; about 1 400 with one pool).
    pub fn set_pool(&mut self, pool: TilePool) {
        self.pool = pool;
    }

    /// Share decoded tiles of multicast bytes through `shared` from now on.
    pub fn set_shared(&mut self, shared: Rc<RefCell<SharedTiles>>) {
        self.shared = Some(shared);
    }

    /// Whether this core shares decoded tiles of multicast bytes with the run's other cores.
    pub fn shares_tiles(&self) -> bool {
        self.shared.is_some()
    }

    /// The tile another core decoded from the bytes multicast with `tag` at `addr`, if it is kept.
    pub fn shared_tile(&self, tag: u64, addr: u32, format: DataFormat, transposed: bool) -> Option<Arc<Tile>> {
        self.shared.as_ref()?.borrow_mut().get(tag, addr, format, transposed)
    }

    /// Offer `tile`, decoded here from the bytes multicast with `tag` at `addr`, to the other cores.
    pub fn share_tile(&self, tag: u64, addr: u32, format: DataFormat, transposed: bool, tile: &Arc<Tile>) {
        if let Some(s) = &self.shared {
            let old = s.borrow_mut().insert(tag, addr, format, transposed, tile.clone());
            if let Some(old) = old.filter(|t| Arc::strong_count(t) == 1) {
                self.pool.borrow_mut().push(old);
            }
        }
    }

    /// Wait until the helper thread has finished every product queued for this core.
    fn settle(&self) {
        if let Some(o) = &self.offload {
            o.wait(&self.dst, self.issued, self.issued);
        }
    }

    /// Wait until the helper thread has finished the products queued for DST tile `slot`.
    fn settle_slot(&self, slot: usize) {
        if let Some(o) = &self.offload {
            o.wait(&self.dst, self.slot_jobs[slot], self.issued);
        }
    }

    /// DST tile `slot` as MATH and PACK read it (zeros when not written since its section was cleared).
    pub fn dst(&self, slot: usize) -> DstRead<'_> {
        read_dst(&self.dst, self.offload.as_deref(), (self.slot_jobs[slot], self.issued), self.dst_written[slot], slot)
    }

    /// Whether DST tile `slot` was written since its section was last cleared (reductions start fresh).
    pub fn dst_was_written(&self, slot: usize) -> bool {
        self.dst_written[slot]
    }

    /// DST tile `slot` to update in place (zeroed first when not written since its section was cleared);
    /// marks it written.
    pub fn dst_mut(&mut self, slot: usize) -> MutexGuard<'_, Tile> {
        self.settle_slot(slot);
        self.dst_int_bits[slot] = false;
        let mut t = self.dst.lock(slot);
        if !self.dst_written[slot] {
            t.fill(0.0);
            self.dst_written[slot] = true;
        }
        t
    }

    /// DST tile `slot` to overwrite entirely (its old values are never read, so it is not zeroed); marks it
    /// written.
    pub fn dst_overwrite(&mut self, slot: usize) -> MutexGuard<'_, Tile> {
        self.settle_slot(slot);
        self.dst_written[slot] = true;
        self.dst_int_bits[slot] = false;
        self.dst.lock(slot)
    }

    /// DST tile `slot` += `a` · `b` as the FPU computes a tile matmul ([`math::matmul`](super::math::matmul)),
    /// on the helper thread when this run has one.
    pub fn matmul(&mut self, slot: usize, a: &Arc<Tile>, b: &Arc<Tile>, phases: u32, fp32: bool) {
        match &self.offload {
            Some(o) => {
                let zero = !self.dst_written[slot];
                self.dst_written[slot] = true;
                self.dst_int_bits[slot] = false;
                self.issued += 1;
                self.slot_jobs[slot] = self.issued;
                o.matmul(&self.dst, slot, zero, a, b, phases, fp32, &self.pool);
            }
            None => super::math::matmul(&mut self.dst_mut(slot), a, b, phases, fp32),
        }
    }

    /// Mark DST tile `slot` as holding 32-bit integer bit patterns (after a copy of such tiles, or an SFPI
    /// integer store); any other write clears the mark.
    pub fn set_dst_int_bits(&mut self, slot: usize, int_bits: bool) {
        self.dst_int_bits[slot] = int_bits;
    }

    /// Whether DST tile `slot` holds 32-bit integer bit patterns ([`ComputeState::set_dst_int_bits`]).
    pub fn dst_int_bits(&self, slot: usize) -> bool {
        self.dst_int_bits[slot] && self.dst_written[slot]
    }

    /// DST tile `slot` encoded as the packer writes it in `format` into `out` (the format's tile size).
    pub fn encode_dst_into(&mut self, slot: usize, format: DataFormat, out: &mut [u8]) {
        let int_bits = self.dst_int_bits(slot) && matches!(format, DataFormat::Int32 | DataFormat::UInt32);
        let (held, faces, _) = self.dst_for_pack(slot);
        if int_bits {
            // Integers held as bit patterns leave as they are.
            rows_to_faces(&held, &mut faces[..]);
            for (o, v) in out.chunks_exact_mut(4).zip(faces.iter()) {
                o.copy_from_slice(&v.to_bits().to_le_bytes());
            }
        } else if format == DataFormat::Float16_b {
            // The common case in one pass: rows to faces while narrowing.
            bf16_rows_to_faces(&held, out);
        } else {
            rows_to_faces(&held, &mut faces[..]);
            encode_tile(format, &faces[..], out);
        }
    }

    /// DST tile `slot` as PACK reads it ([`ComputeState::dst`]), with the packer's scratch faces and bytes.
    fn dst_for_pack(&mut self, slot: usize) -> (DstRead<'_>, &mut Tile, &mut Vec<u8>) {
        let need = (self.slot_jobs[slot], self.issued);
        let held = read_dst(&self.dst, self.offload.as_deref(), need, self.dst_written[slot], slot);
        (held, &mut self.pack_faces, &mut self.pack_bytes)
    }

    /// DST tile `slot` added to the tile `old` (bytes in `format`) and encoded again: the packer's L1
    /// accumulation (`pack_reconfig_l1_acc(1)`). The sum is formed in f32 and rounded once to `format`.
    pub fn accumulate_dst(&mut self, slot: usize, format: DataFormat, old: &[u8]) -> &[u8] {
        let n = format.tile_size() as usize;
        let (held, faces, bytes) = self.dst_for_pack(slot);
        bytes.resize(n, 0);
        rows_to_faces(&held, &mut faces[..]);
        let mut prev = [0f32; 1024];
        layout::format::decode_tile(format, old, &mut prev);
        for (a, b) in faces.iter_mut().zip(prev.iter()) {
            *a += *b;
        }
        encode_tile(format, &faces[..], &mut bytes[..n]);
        &bytes[..n]
    }

    /// A scratch tile (recycled): not shared, so `Arc::get_mut` succeeds on it.
    pub fn tile(&mut self) -> Arc<Tile> {
        let spare = self.pool.borrow_mut().pop();
        spare.unwrap_or_else(|| Arc::new([0f32; 1024]))
    }

    /// Return tiles for reuse (those the decoded-tile cache still holds stay with it).
    pub fn recycle(&mut self, mut tiles: Vec<Arc<Tile>>) {
        self.pool.borrow_mut().extend(tiles.drain(..).filter(|t| Arc::strong_count(t) == 1));
        // Two operand sets are in flight at most; a few spare lists cover every caller.
        if self.lists.len() < 8 {
            self.lists.push(tiles);
        }
    }

    /// An empty operand list (recycled).
    pub fn tile_list(&mut self) -> Vec<Arc<Tile>> {
        self.lists.pop().unwrap_or_default()
    }

    /// The decoded tile at L1 `addr` in `format` (transposed or not), if its bytes still have `version`.
    pub fn cached_tile(&self, addr: u32, version: u64, format: DataFormat, transposed: bool) -> Option<Arc<Tile>> {
        self.decoded
            .iter()
            .find(|d| d.addr == addr && d.version == version && d.format == format && d.transposed == transposed)
            .map(|d| d.tile.clone())
    }

    /// Remember `tile` as the decoded form of L1 `addr` at `version`.
    pub fn remember_tile(&mut self, addr: u32, version: u64, format: DataFormat, transposed: bool, tile: Arc<Tile>) {
        let d = Decoded { addr, version, format, transposed, tile };
        if self.decoded.len() < DECODED_TILES {
            self.decoded.push(d);
        } else {
            let old = std::mem::replace(&mut self.decoded[self.next_decoded], d);
            self.next_decoded = (self.next_decoded + 1) % DECODED_TILES;
            if Arc::strong_count(&old.tile) == 1 {
                self.pool.borrow_mut().push(old.tile);
            }
        }
    }

    /// Zero DST section `section` (what `tile_regs_release` does): its slots read as zeros until written.
    pub fn clear_section(&mut self, section: u32) {
        let start = self.settings.slot(section, 0);
        self.dst_written[start..start + self.settings.slots_per_section()].fill(false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cleared_section_reads_as_zeros_until_written() {
        let mut s = ComputeState::new(ComputeSettings::default());
        let slot = s.settings.slot(1, 3);
        s.dst_mut(slot).fill(7.0);
        s.dst_mut(slot)[5] += 1.0;
        assert_eq!(s.dst(slot)[5], 8.0);
        assert!(s.dst_was_written(slot));
        s.clear_section(0);
        assert_eq!(s.dst(slot)[5], 8.0, "clearing the other section leaves this one");
        s.clear_section(1);
        assert!(!s.dst_was_written(slot));
        assert!(s.dst(slot).iter().all(|&v| v == 0.0), "a cleared slot reads as zeros");
        let mut packed = [0xffu8; 2048];
        s.encode_dst_into(slot, DataFormat::Float16_b, &mut packed);
        assert!(packed.iter().all(|&b| b == 0), "and packs as zeros");
        // Updating in place starts from zeros, not from what the storage still holds.
        s.dst_mut(slot)[0] += 2.0;
        assert_eq!(&s.dst(slot)[..3], &[2.0, 0.0, 0.0]);
        // Overwriting marks the slot written without reading it.
        s.clear_section(1);
        s.dst_overwrite(slot).fill(3.0);
        assert!(s.dst(slot).iter().all(|&v| v == 3.0));
    }

    #[test]
    fn a_tile_read_waits_for_its_own_products_and_sees_them_all() {
        // Products on two DST tiles interleaved, each tile read and overwritten mid-stream while products for
        // the other are still queued: every value equals the products computed in place, in order.
        let Some(o) = Offload::start() else { return };
        let mut s = ComputeState::new(ComputeSettings::default());
        s.set_offload(Rc::new(o));
        let mut inline = ComputeState::new(ComputeSettings::default());
        let tile = |seed: u32| -> Arc<Tile> {
            Arc::new(std::array::from_fn(|i| {
                layout::format::round_bf16(((i as u32 * 5 + seed * 11) % 53) as f32 / 27.0 - 1.0)
            }))
        };
        for i in 0..200u32 {
            let slot = (i % 3 == 0) as usize;
            let (a, b) = (tile(i), tile(i + 7));
            s.matmul(slot, &a, &b, 1 + i % 4, false);
            inline.matmul(slot, &a, &b, 1 + i % 4, false);
            if i % 37 == 5 {
                let other = 1 - slot;
                let (got, want) = (*s.dst(other), *inline.dst(other));
                assert!(got.iter().zip(&want).all(|(x, y)| x.to_bits() == y.to_bits()), "tile {other} after {i}");
                s.dst_overwrite(other).fill(0.5);
                inline.dst_overwrite(other).fill(0.5);
            }
        }
        for slot in 0..2 {
            let (got, want) = (*s.dst(slot), *inline.dst(slot));
            assert!(got.iter().zip(&want).all(|(x, y)| x.to_bits() == y.to_bits()), "tile {slot} at the end");
        }
    }
}
