// Reader of tensim's sfpu_eltwise_chain program, in today's kernel API: a tile of ones once into c_1, then the n
// input tiles into c_0, through TensorAccessors whose args (page size included) the host appended.
// Runtime args: src address, ones address, n.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    uint32_t src = get_arg_val<uint32_t>(0);
    uint32_t ones = get_arg_val<uint32_t>(1);
    uint32_t n = get_arg_val<uint32_t>(2);
    constexpr uint32_t cb_in = tt::CBIndex::c_0;
    constexpr uint32_t cb_ones = tt::CBIndex::c_1;
    constexpr auto s_args = TensorAccessorArgs<0>();
    constexpr auto o_args = TensorAccessorArgs<s_args.next_compile_time_args_offset()>();
    const auto s = TensorAccessor(s_args, src);
    const auto o = TensorAccessor(o_args, ones);
    cb_reserve_back(cb_ones, 1);
    noc_async_read_tile(0, o, get_write_ptr(cb_ones));
    noc_async_read_barrier();
    cb_push_back(cb_ones, 1);
    for (uint32_t t = 0; t < n; t++) {
        cb_reserve_back(cb_in, 1);
        noc_async_read_tile(t, s, get_write_ptr(cb_in));
        noc_async_read_barrier();
        cb_push_back(cb_in, 1);
    }
}
