// Reader of tensim's matmul_multicore_reuse program (today's kernel API: TensorAccessors from the host's
// compile-time args): for each K block, this core's A block (block_h ×
// block_w tiles, row-major) into c_0 and its B block (block_w × b_w) into c_1.
// Runtime args: A address, A first tile, A stride h, A next-block stride, block_w, block_h, B address,
// B first tile, B stride h, B next-block stride, b_w, number of K blocks.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    uint32_t a_addr = get_arg_val<uint32_t>(0);
    uint32_t a_block = get_arg_val<uint32_t>(1);
    uint32_t a_stride_h = get_arg_val<uint32_t>(2);
    uint32_t a_next = get_arg_val<uint32_t>(3);
    uint32_t block_w = get_arg_val<uint32_t>(4);
    uint32_t block_h = get_arg_val<uint32_t>(5);
    uint32_t b_addr = get_arg_val<uint32_t>(6);
    uint32_t b_block = get_arg_val<uint32_t>(7);
    uint32_t b_stride_h = get_arg_val<uint32_t>(8);
    uint32_t b_next = get_arg_val<uint32_t>(9);
    uint32_t b_w = get_arg_val<uint32_t>(10);
    uint32_t num_blocks = get_arg_val<uint32_t>(11);
    constexpr uint32_t cb_a = tt::CBIndex::c_0;
    constexpr uint32_t cb_b = tt::CBIndex::c_1;
    const uint32_t tile = get_tile_size(cb_a);
    constexpr auto a_args = TensorAccessorArgs<0>();
    constexpr auto b_args = TensorAccessorArgs<a_args.next_compile_time_args_offset()>();
    const auto a = TensorAccessor(a_args, a_addr, tile);
    const auto b = TensorAccessor(b_args, b_addr, tile);
    for (uint32_t blk = 0; blk < num_blocks; blk++) {
        cb_reserve_back(cb_a, block_h * block_w);
        cb_reserve_back(cb_b, block_w * b_w);
        uint32_t l1 = get_write_ptr(cb_a);
        for (uint32_t h = 0; h < block_h; h++) {
            for (uint32_t w = 0; w < block_w; w++) {
                noc_async_read_tile(a_block + h * a_stride_h + w, a, l1);
                l1 += tile;
            }
        }
        l1 = get_write_ptr(cb_b);
        for (uint32_t h = 0; h < block_w; h++) {
            for (uint32_t w = 0; w < b_w; w++) {
                noc_async_read_tile(b_block + h * b_stride_h + w, b, l1);
                l1 += tile;
            }
        }
        noc_async_read_barrier();
        cb_push_back(cb_a, block_h * block_w);
        cb_push_back(cb_b, block_w * b_w);
        a_block += a_next;
        b_block += b_next;
    }
}
