// Writer of tensim's legacy eltwise_binary program (2025 style): the output's TensorAccessorArgs at offset 0
// with an explicit page size, the classic tile writes. Runtime args: dst address, n, start.
#include <cstdint>
#include "dataflow_api.h"

void kernel_main() {
    uint32_t dst = get_arg_val<uint32_t>(0);
    uint32_t n = get_arg_val<uint32_t>(1);
    uint32_t start = get_arg_val<uint32_t>(2);
    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    const uint32_t tile_bytes = get_tile_size(cb_out);
    constexpr auto out_args = TensorAccessorArgs<0>();
    const auto out = TensorAccessor(out_args, dst, tile_bytes);
    for (uint32_t t = start; t < start + n; t++) {
        cb_wait_front(cb_out, 1);
        noc_async_write_tile(t, out, get_read_ptr(cb_out));
        noc_async_write_barrier();
        cb_pop_front(cb_out, 1);
    }
}
