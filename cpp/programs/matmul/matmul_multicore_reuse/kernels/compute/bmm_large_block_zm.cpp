// Compute kernel of tensim's matmul_multicore_reuse program: for each K block, every output sub-block is
// accumulated in DST (its partial sums reloaded from c_24 after the first block) and packed to c_24, or to
// c_16 after the last block. c_16 and c_24 share memory. Compile-time args: in0_block_w, in0 sub-blocks,
// in0 block tiles, in0 sub-block tiles, in1 sub-blocks, in1 block tiles, in1 per-core width, K blocks,
// sub-block h, sub-block w, sub-block tiles.
#include <cstdint>

#include "api/compute/common.h"
#include "api/compute/matmul.h"
#include "api/compute/tile_move_copy.h"

void kernel_main() {
    constexpr uint32_t in0_block_w = get_compile_time_arg_val(0);
    constexpr uint32_t in0_num_subblocks = get_compile_time_arg_val(1);
    constexpr uint32_t in0_block_num_tiles = get_compile_time_arg_val(2);
    constexpr uint32_t in0_subblock_num_tiles = get_compile_time_arg_val(3);
    constexpr uint32_t in1_num_subblocks = get_compile_time_arg_val(4);
    constexpr uint32_t in1_block_num_tiles = get_compile_time_arg_val(5);
    constexpr uint32_t in1_per_core_w = get_compile_time_arg_val(6);
    constexpr uint32_t num_blocks = get_compile_time_arg_val(7);
    constexpr uint32_t out_subblock_h = get_compile_time_arg_val(8);
    constexpr uint32_t out_subblock_w = get_compile_time_arg_val(9);
    constexpr uint32_t out_subblock_num_tiles = get_compile_time_arg_val(10);
    constexpr auto cb_in0 = tt::CBIndex::c_0;
    constexpr auto cb_in1 = tt::CBIndex::c_1;
    constexpr auto cb_out = tt::CBIndex::c_16;
    constexpr auto cb_partials = tt::CBIndex::c_24;

    mm_init(cb_in0, cb_in1, cb_out);
    bool reload = false;
    uint32_t out_tiles_to_wait = out_subblock_num_tiles;
    for (uint32_t block = 0; block < num_blocks; block++) {
        bool last = block + 1 == num_blocks;
        cb_wait_front(cb_in0, in0_block_num_tiles);
        cb_wait_front(cb_in1, in1_block_num_tiles);
        uint32_t in0_subblock_offset = 0;
        for (uint32_t i = 0; i < in0_num_subblocks; i++) {
            uint32_t in1_subblock_offset = 0;
            for (uint32_t j = 0; j < in1_num_subblocks; j++) {
                acquire_dst();
                if (reload) {
                    copy_tile_to_dst_init_short(cb_partials);
                    cb_wait_front(cb_partials, out_subblock_num_tiles);
                    for (uint32_t t = 0; t < out_subblock_num_tiles; t++) copy_tile(cb_partials, t, t);
                    cb_pop_front(cb_partials, out_subblock_num_tiles);
                    mm_init_short(cb_in0, cb_in1);
                }
                uint32_t dst = 0;
                for (uint32_t h = 0; h < out_subblock_h; h++) {
                    for (uint32_t w = 0; w < out_subblock_w; w++) {
                        for (uint32_t inner = 0; inner < in0_block_w; inner++) {
                            uint32_t a = in0_subblock_offset + h * in0_block_w + inner;
                            uint32_t b = in1_subblock_offset + inner * in1_per_core_w + w;
                            matmul_tiles(cb_in0, cb_in1, a, b, dst);
                        }
                        dst++;
                    }
                }
                if (last) {
                    cb_reserve_back(cb_out, out_subblock_num_tiles);
                    for (uint32_t t = 0; t < out_subblock_num_tiles; t++) pack_tile(t, cb_out);
                    cb_push_back(cb_out, out_subblock_num_tiles);
                } else {
                    // c_16 and c_24 share memory: on the first block, keep the output's space reserved ahead
                    // of the partials so the two never overlap.
                    if (block == 0) {
                        cb_reserve_back(cb_out, out_tiles_to_wait);
                        out_tiles_to_wait += out_subblock_num_tiles;
                    }
                    cb_reserve_back(cb_partials, out_subblock_num_tiles);
                    for (uint32_t t = 0; t < out_subblock_num_tiles; t++) pack_tile(t, cb_partials);
                    cb_push_back(cb_partials, out_subblock_num_tiles);
                }
                release_dst();
                in1_subblock_offset += out_subblock_w;
            }
            in0_subblock_offset += in0_subblock_num_tiles;
        }
        if (num_blocks > 1) reload = true;
        cb_pop_front(cb_in0, in0_block_num_tiles);
        cb_pop_front(cb_in1, in1_block_num_tiles);
    }
}
