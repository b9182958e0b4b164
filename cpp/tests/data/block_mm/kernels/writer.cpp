// block_mm writer: C's tiles to DRAM, the copied Int32 tile into page 1 of the integer buffer.
#include <cstdint>
#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

void kernel_main() {
    const uint32_t c_addr = get_arg_val<uint32_t>(0), i_addr = get_arg_val<uint32_t>(1), n = get_arg_val<uint32_t>(2);
    constexpr auto c_args = TensorAccessorArgs<0>();
    constexpr auto i_args = TensorAccessorArgs<c_args.next_compile_time_args_offset()>();
    const auto c = TensorAccessor(c_args, c_addr, get_tile_size(tt::CBIndex::c_16));
    const auto ints = TensorAccessor(i_args, i_addr, get_tile_size(tt::CBIndex::c_17));
    for (uint32_t t = 0; t < n; t++) {
        cb_wait_front(tt::CBIndex::c_16, 1);
        noc_async_write_page(t, c, get_read_ptr(tt::CBIndex::c_16));
        noc_async_write_barrier();
        cb_pop_front(tt::CBIndex::c_16, 1);
    }
    cb_wait_front(tt::CBIndex::c_17, 1);
    noc_async_write_page(1, ints, get_read_ptr(tt::CBIndex::c_17));
    noc_async_write_barrier();
    cb_pop_front(tt::CBIndex::c_17, 1);
}
