// bscale writer: the products to DRAM.
#include <cstdint>
#include "api/dataflow/dataflow_api.h"
void kernel_main() {
    uint32_t dst_addr = get_arg_val<uint32_t>(0), first = get_arg_val<uint32_t>(1), n = get_arg_val<uint32_t>(2);
    constexpr auto da = TensorAccessorArgs<0>();
    const auto dst = TensorAccessor(da, dst_addr, get_tile_size(tt::CBIndex::c_16));
    for (uint32_t t = first; t < first + n; t++) {
        cb_wait_front(tt::CBIndex::c_16, 1);
        noc_async_write_tile(t, dst, get_read_ptr(tt::CBIndex::c_16));
        noc_async_write_barrier();
        cb_pop_front(tt::CBIndex::c_16, 1);
    }
}
