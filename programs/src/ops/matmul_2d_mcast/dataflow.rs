//! The 2-D multicast matmul's data-movement kernels (gemm-bench.md §3.4–3.5): the in0 sender (left column,
//! reads its row-band from DRAM and multicasts each K block along its row), the in0 receiver, the combined
//! in0 sender/receiver of a block-sharded in0 (the owner of each K block multicasts it from its shard), and
//! the in1 sender/receiver kernels that also write the output. Every block is a semaphore handshake: a
//! receiver resets its own flag and increments the sender's counter; the sender waits for all receivers,
//! multicasts the block to the same CB slot on each, then multicasts VALID behind it on the same NoC.

use super::{CB_IN0, CB_IN0_SHARD, CB_IN1, CB_OUT, CB_VALID};
use sim_device::prelude::*;

pub(super) const VALID: u32 = 1;
pub(super) const INVALID: u32 = 0;

macro_rules! args {
    ($(#[$m:meta])* pub struct $name:ident { $($(#[$fm:meta])* $f:ident),* $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, Default)]
        pub struct $name { $($(#[$fm])* pub $f: u32),* }
        impl $name {
            /// Number of arguments.
            pub const LEN: usize = [$(stringify!($f)),*].len();
            /// The runtime-argument vector, fields in declaration order.
            pub fn to_vec(&self) -> Vec<u32> { vec![$(self.$f),*] }
            /// Read the fields back from the kernel's runtime arguments.
            pub fn read(k: &Dataflow) -> $name {
                let mut i = 0usize;
                $(let $f: u32 = k.get_arg_val(i); i += 1;)*
                let _ = i;
                $name { $($f),* }
            }
        }
    };
}

args! {
    /// Runtime arguments of every data-movement kernel of the op (each reads what it needs).
    pub struct DmArgs {
        /// DRAM (or L1 shard) addresses of in0, in1 and the output.
        in0_addr, in1_addr, out_addr,
        /// Tiles of K and N.
        kt, nt,
        /// Program config.
        in0_block_w, out_block_h, out_block_w, per_core_m, per_core_n, sub_h, sub_w,
        /// K blocks per output block.
        nb,
        /// This core's logical column and row.
        bx, by,
        /// The in0 multicast rectangle (NoC x/y start and end), its destinations, and the in0 sender's NoC x/y.
        in0_x0, in0_y0, in0_x1, in0_y1, in0_dests, in0_sx, in0_sy,
        /// The in1 multicast rectangle, its destinations, and the in1 sender's NoC x/y.
        in1_x0, in1_y0, in1_x1, in1_y1, in1_dests, in1_sx, in1_sy,
        /// Semaphore ids: in0 sender, in0 receiver, in1 sender, in1 receiver.
        sem_in0_s, sem_in0_r, sem_in1_s, sem_in1_r,
        /// 1 when the output is the L1 shard behind c_4 (no writes).
        out_sharded,
        /// Block-sharded in0: tiles per shard row, K blocks per shard, and the NoC y of this row.
        shard_w, blocks_per_shard, row_noc_y,
    }
}

/// The NoC x of each column of the grid follows the [`DmArgs`] of the sharded-in0 kernel.
pub(super) const ROW_X_BASE: usize = DmArgs::LEN;

impl DmArgs {
    fn blocks(&self) -> (u32, u32) {
        (self.per_core_m / self.out_block_h, self.per_core_n / self.out_block_w)
    }
}

/// Sender half of one block: wait until every receiver is ready, multicast `bytes` from `src` to the
/// same address at the destinations, then VALID to their receiver semaphores.
fn multicast_block(k: &mut Dataflow, rect: u64, src: u32, dst: u32, bytes: u32, dests: u32, sems: (u32, u32)) {
    let (sender, receiver) = sems;
    k.noc_semaphore_wait(sender, dests);
    k.noc_semaphore_set(sender, 0);
    let data = rect | dst as u64;
    k.noc_async_write_multicast(src, data, bytes, dests, true);
    k.noc_semaphore_set_multicast(receiver, rect | receiver as u64, dests, false);
}

/// Receiver half: mark the block INVALID, tell the sender this core is ready, wait for VALID.
fn receive_block(k: &mut Dataflow, sender_xy: (u32, u32), sems: (u32, u32)) {
    let (sender, receiver) = sems;
    k.noc_semaphore_set(receiver, INVALID);
    let s = k.get_noc_addr(sender_xy.0, sender_xy.1, sender);
    k.noc_semaphore_inc(s, 1);
    k.noc_semaphore_wait(receiver, VALID);
}

/// Read `rows` × `cols` tiles starting at tile `first` (row stride `stride`) into L1 from `l1`.
fn read_block(
    k: &mut Dataflow,
    g: &InterleavedAddrGenFast<true>,
    first: u32,
    rows: u32,
    cols: u32,
    stride: u32,
    l1: u32,
) {
    let mut at = l1;
    for h in 0..rows {
        for w in 0..cols {
            k.noc_async_read_tile(first + h * stride + w, g, at);
            at += g.page_size;
        }
    }
    k.noc_async_read_barrier();
}

fn dram_gen(k: &Dataflow, addr: u32, cb: CBIndex) -> InterleavedAddrGenFast<true> {
    InterleavedAddrGenFast::<true> {
        bank_base_address: addr,
        page_size: k.get_tile_size(cb),
        data_format: k.get_dataformat(cb),
    }
}

/// The multicast rectangle of `x0,y0`–`x1,y1` with address 0 (OR the local address in).
fn rect(k: &Dataflow, x0: u32, y0: u32, x1: u32, y1: u32) -> u64 {
    k.get_noc_multicast_addr(x0, y0, x1, y1, 0)
}

/// `reader_bmm_tile_layout_in0_sender_padding`: the left column reads its row-band of in0 from DRAM, one
/// K block at a time, and multicasts each along its row.
pub fn in0_sender(k: &mut Dataflow) {
    let a = DmArgs::read(k);
    let g = dram_gen(k, a.in0_addr, CB_IN0);
    let sems = (k.get_semaphore(a.sem_in0_s), k.get_semaphore(a.sem_in0_r));
    k.noc_semaphore_set(sems.1, VALID);
    let r = rect(k, a.in0_x0, a.in0_y0, a.in0_x1, a.in0_y1);
    let tiles = a.out_block_h * a.in0_block_w;
    let (nbh, nbw) = a.blocks();
    for bh in 0..nbh {
        for _bw in 0..nbw {
            let mut first = a.by * a.per_core_m * a.kt + bh * a.out_block_h * a.kt;
            for _ in 0..a.nb {
                k.cb_reserve_back(CB_IN0, tiles);
                let l1 = k.get_write_ptr(CB_IN0);
                read_block(k, &g, first, a.out_block_h, a.in0_block_w, a.kt, l1);
                if a.in0_dests > 0 {
                    multicast_block(k, r, l1, l1, tiles * g.page_size, a.in0_dests, sems);
                }
                k.cb_push_back(CB_IN0, tiles);
                first += a.in0_block_w;
            }
        }
    }
}

/// `reader_bmm_tile_layout_in0_receiver`: every other column receives each in0 block from its row's sender.
pub fn in0_receiver(k: &mut Dataflow) {
    let a = DmArgs::read(k);
    let sems = (k.get_semaphore(a.sem_in0_s), k.get_semaphore(a.sem_in0_r));
    let tiles = a.out_block_h * a.in0_block_w;
    let (nbh, nbw) = a.blocks();
    for _ in 0..nbh * nbw * a.nb {
        k.cb_reserve_back(CB_IN0, tiles);
        receive_block(k, (a.in0_sx, a.in0_sy), sems);
        k.cb_push_back(CB_IN0, tiles);
    }
}

/// `reader_bmm_tile_layout_in0_sender_receiver_padding_block_sharded`: each core of a row holds a K slice
/// of the row's in0 in its shard (c_2); the owner of K block `kb` multicasts it to the whole row (itself
/// included, from its shard, or — when a shard holds several K blocks of several rows — after copying the
/// block's rows into its own c_0 slot), and VALID after it from the c_6 word.
pub fn in0_sharded(k: &mut Dataflow) {
    let a = DmArgs::read(k);
    let cols = a.in0_dests + 1;
    let row_x: Vec<u32> = (0..cols as usize).map(|i| k.get_arg_val(ROW_X_BASE + i)).collect();
    let sems = (k.get_semaphore(a.sem_in0_s), k.get_semaphore(a.sem_in0_r));
    let valid = k.get_write_ptr(CB_VALID);
    k.l1_write_u32(valid, VALID);
    let tile = k.get_tile_size(CB_IN0);
    let shard = k.get_read_ptr(CB_IN0_SHARD);
    let r = rect(k, a.in0_x0, a.in0_y0, a.in0_x1, a.in0_y1);
    let tiles = a.out_block_h * a.in0_block_w;
    let row_bytes = a.in0_block_w * tile;
    let (nbh, nbw) = a.blocks();
    for bh in 0..nbh {
        for _bw in 0..nbw {
            for kb in 0..a.nb {
                k.cb_reserve_back(CB_IN0, tiles);
                k.noc_semaphore_set(sems.1, INVALID);
                let owner = kb / a.blocks_per_shard;
                let l1 = k.get_write_ptr(CB_IN0);
                if owner == a.bx {
                    let first =
                        shard + (bh * a.out_block_h * a.shard_w + (kb % a.blocks_per_shard) * a.in0_block_w) * tile;
                    if a.in0_dests > 0 {
                        k.noc_semaphore_wait(sems.0, a.in0_dests);
                        k.noc_semaphore_set(sems.0, 0);
                    }
                    if a.blocks_per_shard > 1 && a.out_block_h > 1 {
                        // The block's rows are strided in the shard: gather them into c_0, then send.
                        for h in 0..a.out_block_h {
                            let src = k.get_noc_addr_local(first + h * a.shard_w * tile);
                            k.noc_async_read(src, l1 + h * row_bytes, row_bytes);
                        }
                        k.noc_async_read_barrier();
                        if a.in0_dests > 0 {
                            k.noc_async_write_multicast(l1, r | l1 as u64, tiles * tile, a.in0_dests, true);
                        }
                    } else {
                        k.noc_async_write_multicast_loopback_src(first, r | l1 as u64, tiles * tile, cols, true);
                    }
                    k.noc_semaphore_set_multicast_loopback_src(valid, r | sems.1 as u64, cols, false);
                } else {
                    let s = k.get_noc_addr(row_x[owner as usize], a.row_noc_y, sems.0);
                    k.noc_semaphore_inc(s, 1);
                }
                k.noc_semaphore_wait(sems.1, VALID);
                k.cb_push_back(CB_IN0, tiles);
            }
        }
    }
}

/// Write one finished output block from c_4 to its tiles of the interleaved output, sub-block by sub-block.
fn write_out_block(k: &mut Dataflow, a: &DmArgs, g: &InterleavedAddrGenFast<true>, bh: u32, bw: u32) {
    let sub = a.sub_h * a.sub_w;
    let block_start = (a.by * a.per_core_m + bh * a.out_block_h) * a.nt + a.bx * a.per_core_n + bw * a.out_block_w;
    for sh in 0..a.out_block_h / a.sub_h {
        for sw in 0..a.out_block_w / a.sub_w {
            k.cb_wait_front(CB_OUT, sub);
            let mut l1 = k.get_read_ptr(CB_OUT);
            let first = block_start + sh * a.sub_h * a.nt + sw * a.sub_w;
            for r in 0..a.sub_h {
                for c in 0..a.sub_w {
                    k.noc_async_write_tile(first + r * a.nt + c, g, l1);
                    l1 += g.page_size;
                }
            }
            k.noc_async_write_barrier();
            k.cb_pop_front(CB_OUT, sub);
        }
    }
}

fn in1_and_writer(k: &mut Dataflow, sends: bool) {
    let a = DmArgs::read(k);
    let g = dram_gen(k, a.in1_addr, CB_IN1);
    let out = dram_gen(k, a.out_addr, CB_OUT);
    let sems = (k.get_semaphore(a.sem_in1_s), k.get_semaphore(a.sem_in1_r));
    if sends {
        k.noc_semaphore_set(sems.1, VALID);
    }
    let r = if sends { rect(k, a.in1_x0, a.in1_y0, a.in1_x1, a.in1_y1) } else { 0 };
    let tiles = a.in0_block_w * a.out_block_w;
    let (nbh, nbw) = a.blocks();
    for bh in 0..nbh {
        for bw in 0..nbw {
            let mut first = a.bx * a.per_core_n + bw * a.out_block_w;
            for _ in 0..a.nb {
                k.cb_reserve_back(CB_IN1, tiles);
                if sends {
                    let l1 = k.get_write_ptr(CB_IN1);
                    read_block(k, &g, first, a.in0_block_w, a.out_block_w, a.nt, l1);
                    if a.in1_dests > 0 {
                        multicast_block(k, r, l1, l1, tiles * g.page_size, a.in1_dests, sems);
                    }
                } else {
                    receive_block(k, (a.in1_sx, a.in1_sy), sems);
                }
                k.cb_push_back(CB_IN1, tiles);
                first += a.in0_block_w * a.nt;
            }
            if a.out_sharded == 0 {
                write_out_block(k, &a, &out, bh, bw);
            }
        }
    }
    if a.out_sharded != 0 {
        k.cb_wait_front(CB_OUT, a.per_core_m * a.per_core_n);
    }
}

/// `reader_bmm_tile_layout_in1_sender_writer_padding`: the top row reads its column-band of in1 from DRAM
/// per K block and multicasts it down its column; after each output block it writes the block out.
pub fn in1_sender_writer(k: &mut Dataflow) {
    in1_and_writer(k, true);
}

/// `reader_bmm_tile_layout_in1_receiver_writer_padding`: the other rows receive in1 and write their output.
pub fn in1_receiver_writer(k: &mut Dataflow) {
    in1_and_writer(k, false);
}
