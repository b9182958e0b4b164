// Writer of tensim's matmul_multicore_reuse program: the output block from c_16, sub-block by sub-block, to
// its tiles of the interleaved output. Runtime args: out address, first tile, stride h (Nt), next sub-block
// stride w, next sub-block stride h, sub-block w, sub-block h, sub-blocks across, sub-blocks down.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    uint32_t addr = get_arg_val<uint32_t>(0);
    uint32_t start = get_arg_val<uint32_t>(1);
    uint32_t stride_h = get_arg_val<uint32_t>(2);
    uint32_t next_w = get_arg_val<uint32_t>(3);
    uint32_t next_h = get_arg_val<uint32_t>(4);
    uint32_t sub_w = get_arg_val<uint32_t>(5);
    uint32_t sub_h = get_arg_val<uint32_t>(6);
    uint32_t num_w = get_arg_val<uint32_t>(7);
    uint32_t num_h = get_arg_val<uint32_t>(8);
    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    const uint32_t tile = get_tile_size(cb_out);
    constexpr auto out_args = TensorAccessorArgs<0>();
    const auto out = TensorAccessor(out_args, addr, tile);
    uint32_t row_start = start;
    for (uint32_t i = 0; i < num_h; i++) {
        uint32_t sub_start = row_start;
        for (uint32_t j = 0; j < num_w; j++) {
            cb_wait_front(cb_out, sub_h * sub_w);
            uint32_t l1 = get_read_ptr(cb_out);
            uint32_t line = sub_start;
            for (uint32_t h = 0; h < sub_h; h++) {
                for (uint32_t w = 0; w < sub_w; w++) {
                    noc_async_write_tile(line + w, out, l1);
                    l1 += tile;
                }
                line += stride_h;
            }
            noc_async_write_barrier();
            cb_pop_front(cb_out, sub_h * sub_w);
            sub_start += next_w;
        }
        row_start += next_h;
    }
}
