//! The 2-D multicast matmul's compute kernel, `bmm_large_block_zm_fused_bias_activation` without bias or
//! activation (gemm-bench.md §3.5): per output block and K block, every sub-block is accumulated in DST
//! over the block's K tiles with `matmul_block`, then packed to the partials CB or, after the last K
//! block, to the output. With packer L1 accumulation the packer adds each K block's sub-block onto the
//! partials already in L1, and only the last K block reloads them into DST; without it every K block after
//! the first reloads its partials ("spill and reload").

use super::{CB_IN0, CB_IN1, CB_INTERM, CB_OUT};
use sim_device::prelude::*;

/// Compile-time arguments, in order.
#[derive(Debug, Clone, Copy)]
pub struct ComputeArgs {
    /// K tiles per block.
    pub in0_block_w: u32,
    /// Output block rows and columns (tiles).
    pub out_block_h: u32,
    /// Output block columns.
    pub out_block_w: u32,
    /// Output blocks per core (rows × columns of blocks).
    pub num_blocks_hw: u32,
    /// Sub-block rows.
    pub sub_h: u32,
    /// Sub-block columns.
    pub sub_w: u32,
    /// K blocks.
    pub nb: u32,
    /// Packer L1 accumulation on.
    pub l1_acc: bool,
    /// The partials CB shares the output CB's memory.
    pub interm_shared: bool,
}

impl ComputeArgs {
    /// As compile-time arguments.
    pub fn to_vec(self) -> Vec<u32> {
        vec![
            self.in0_block_w,
            self.out_block_h,
            self.out_block_w,
            self.num_blocks_hw,
            self.sub_h,
            self.sub_w,
            self.nb,
            self.l1_acc as u32,
            self.interm_shared as u32,
        ]
    }

    fn read(c: &Compute) -> ComputeArgs {
        let a = |i| c.get_compile_time_arg_val(i);
        ComputeArgs {
            in0_block_w: a(0),
            out_block_h: a(1),
            out_block_w: a(2),
            num_blocks_hw: a(3),
            sub_h: a(4),
            sub_w: a(5),
            nb: a(6),
            l1_acc: a(7) != 0,
            interm_shared: a(8) != 0,
        }
    }
}

/// The compute kernel.
pub fn bmm_large_block(c: &mut Compute) {
    let a = ComputeArgs::read(c);
    let sub = a.sub_h * a.sub_w;
    let in0_block_tiles = a.out_block_h * a.in0_block_w;
    let in1_block_tiles = a.in0_block_w * a.out_block_w;
    let out_block_tiles = a.out_block_h * a.out_block_w;
    let (in0_subblocks, in1_subblocks) = (a.out_block_h / a.sub_h, a.out_block_w / a.sub_w);
    let in0_subblock_tiles = a.sub_h * a.in0_block_w;
    c.mm_block_init(CB_IN0, CB_IN1, CB_INTERM, 0, a.sub_w, a.sub_h, a.in0_block_w);
    for _ in 0..a.num_blocks_hw {
        let mut reload = false;
        for kb in 0..a.nb {
            let last = kb + 1 == a.nb;
            if a.l1_acc {
                // The first K block writes the partials; later ones accumulate onto them; the last one
                // has reloaded them into DST and writes the output plainly.
                c.pack_reconfig_l1_acc(u32::from(kb > 0 && !last));
            }
            if !a.interm_shared && a.nb > 1 && (kb == 0 || last) {
                // Partials and output differ in format (a block-float output): switch the packer.
                c.pack_reconfig_data_format(if last { CB_OUT } else { CB_INTERM });
            }
            c.cb_wait_front(CB_IN0, in0_block_tiles);
            c.cb_wait_front(CB_IN1, in1_block_tiles);
            // A shared partials CB lives in the output's memory: before the block's first partials land
            // there, the writer must have drained the previous block's output.
            if kb == 0 && a.interm_shared && a.nb > 1 {
                c.cb_reserve_back(CB_OUT, out_block_tiles);
            }
            let mut in0_index_subblock = 0;
            for _ in 0..in0_subblocks {
                let mut in1_index_subblock = 0;
                for _ in 0..in1_subblocks {
                    c.tile_regs_acquire();
                    if reload {
                        c.copy_tile_to_dst_init_short_with_dt(CB_IN1, CB_INTERM, 0);
                        c.cb_wait_front(CB_INTERM, sub);
                        for i in 0..sub {
                            c.copy_tile(CB_INTERM, i, i);
                        }
                        c.cb_pop_front(CB_INTERM, sub);
                        c.mm_block_init_short_with_dt(CB_IN0, CB_IN1, CB_INTERM, 0, a.sub_w, a.sub_h, a.in0_block_w);
                    }
                    let (mut in0_index, mut in1_index) = (in0_index_subblock, in1_index_subblock);
                    for _ in 0..a.in0_block_w {
                        c.matmul_block(CB_IN0, CB_IN1, in0_index, in1_index, 0, 0, a.sub_w, a.sub_h, a.in0_block_w);
                        in0_index += 1;
                        in1_index += a.out_block_w;
                    }
                    c.tile_regs_commit();
                    let to = if last { CB_OUT } else { CB_INTERM };
                    if last && a.interm_shared && a.nb > 1 {
                        // The output's pages were reserved with the first partials.
                    } else {
                        c.cb_reserve_back(to, sub);
                    }
                    c.tile_regs_wait();
                    for i in 0..sub {
                        c.pack_tile(i, to);
                    }
                    c.tile_regs_release();
                    c.cb_push_back(to, sub);
                    in1_index_subblock += a.sub_w;
                }
                in0_index_subblock += in0_subblock_tiles;
            }
            if a.l1_acc {
                if kb + 2 < a.nb {
                    // The accumulated partials stay in place; release the pages so the next K block
                    // packs onto the same L1 slots.
                    c.cb_wait_front(CB_INTERM, out_block_tiles);
                    c.cb_pop_front(CB_INTERM, out_block_tiles);
                } else if kb + 2 == a.nb {
                    reload = true;
                }
            } else if a.nb > 1 {
                reload = true;
            }
            c.cb_pop_front(CB_IN0, in0_block_tiles);
            c.cb_pop_front(CB_IN1, in1_block_tiles);
        }
    }
}
