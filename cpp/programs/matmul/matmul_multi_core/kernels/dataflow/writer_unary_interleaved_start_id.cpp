// Writer of tensim's matmul_multi_core program, in today's kernel API: n tiles from c_16 to tiles start..start+n of
// an interleaved DRAM tensor through a TensorAccessor. Runtime args: dst address, n, start.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    uint32_t dst = get_arg_val<uint32_t>(0);
    uint32_t n = get_arg_val<uint32_t>(1);
    uint32_t start = get_arg_val<uint32_t>(2);
    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    constexpr auto out_args = TensorAccessorArgs<0>();
    const auto out = TensorAccessor(out_args, dst);
    for (uint32_t t = start; t < start + n; t++) {
        cb_wait_front(cb_out, 1);
        noc_async_write_tile(t, out, get_read_ptr(cb_out));
        noc_async_write_barrier();
        cb_pop_front(cb_out, 1);
    }
}
