// tile_ops writer: the untilized rows (64 rows of 128 bytes), the four transposed tiles, the max tile and
// the product tile.
#include <cstdint>
#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

void kernel_main() {
    constexpr auto rm_args = TensorAccessorArgs<0>();
    constexpr auto tr_args = TensorAccessorArgs<rm_args.next_compile_time_args_offset()>();
    constexpr auto mx_args = TensorAccessorArgs<tr_args.next_compile_time_args_offset()>();
    constexpr auto pr_args = TensorAccessorArgs<mx_args.next_compile_time_args_offset()>();
    const uint32_t tile = get_tile_size(tt::CBIndex::c_17);
    const auto rm = TensorAccessor(rm_args, get_arg_val<uint32_t>(0), 128);
    const auto tr = TensorAccessor(tr_args, get_arg_val<uint32_t>(1), tile);
    const auto mx = TensorAccessor(mx_args, get_arg_val<uint32_t>(2), tile);
    const auto pr = TensorAccessor(pr_args, get_arg_val<uint32_t>(3), tile);
    cb_wait_front(tt::CBIndex::c_16, 4);
    for (uint32_t r = 0; r < 64; r++) noc_async_write_page(r, rm, get_read_ptr(tt::CBIndex::c_16) + r * 128);
    noc_async_write_barrier();
    cb_pop_front(tt::CBIndex::c_16, 4);
    for (uint32_t t = 0; t < 4; t++) {
        cb_wait_front(tt::CBIndex::c_17, 1);
        noc_async_write_page(t, tr, get_read_ptr(tt::CBIndex::c_17));
        noc_async_write_barrier();
        cb_pop_front(tt::CBIndex::c_17, 1);
    }
    cb_wait_front(tt::CBIndex::c_18, 1);
    noc_async_write_page(0, mx, get_read_ptr(tt::CBIndex::c_18));
    cb_wait_front(tt::CBIndex::c_19, 1);
    noc_async_write_page(0, pr, get_read_ptr(tt::CBIndex::c_19));
    noc_async_write_barrier();
    cb_pop_front(tt::CBIndex::c_18, 1);
    cb_pop_front(tt::CBIndex::c_19, 1);
}
