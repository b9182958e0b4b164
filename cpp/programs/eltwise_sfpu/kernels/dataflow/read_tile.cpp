// Reader of tensim's eltwise_sfpu program, in today's kernel API: tiles start..start+n of one interleaved
// DRAM tensor into c_0, one tile at a time, through a TensorAccessor whose page size comes from its
// compile-time args. Runtime args: src address, n, start.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    uint32_t src = get_arg_val<uint32_t>(0);
    uint32_t n = get_arg_val<uint32_t>(1);
    uint32_t start = get_arg_val<uint32_t>(2);
    constexpr uint32_t cb_in = tt::CBIndex::c_0;
    constexpr auto in_args = TensorAccessorArgs<0>();
    const auto in = TensorAccessor(in_args, src);
    for (uint32_t t = start; t < start + n; t++) {
        cb_reserve_back(cb_in, 1);
        noc_async_read_tile(t, in, get_write_ptr(cb_in));
        noc_async_read_barrier();
        cb_push_back(cb_in, 1);
    }
}
