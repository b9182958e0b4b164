// A kernel as 2025 kernels were written: TensorAccessorArgs at the hard-coded offsets of the layout without
// the page-size word (<0>, <1>), the tile count at compile-time arg 2 after them, explicit page sizes.
// Copies n tiles from src to dst through one CB page.
#include <cstdint>
#include "dataflow_api.h"

void kernel_main() {
    uint32_t src = get_arg_val<uint32_t>(0);
    uint32_t dst = get_arg_val<uint32_t>(1);
    constexpr uint32_t n = get_compile_time_arg_val(2);
    constexpr uint32_t cb = tt::CBIndex::c_0;
    const uint32_t tile = get_tile_size(cb);
    const auto in = TensorAccessor(TensorAccessorArgs<0>(), src, tile);
    const auto out = TensorAccessor(TensorAccessorArgs<1>(), dst, tile);
    for (uint32_t t = 0; t < n; t++) {
        cb_reserve_back(cb, 1);
        uint32_t l1 = get_write_ptr(cb);
        noc_async_read_tile(t, in, l1);
        noc_async_read_barrier();
        noc_async_write_tile(t, out, l1);
        noc_async_write_barrier();
    }
    DPRINT << "one-word layout: " << n << " tiles" << ENDL();
}
