// Reader of tensim's legacy eltwise_binary program, as 2025 kernels were written: TensorAccessorArgs at the
// hard-coded offsets of the one-word layout (<0> and <1>), an explicit page size, the classic tile reads.
// tensim recognises the layout and builds the kernel for it. Runtime args: src0 address, src1 address, n,
// start.
#include <cstdint>
#include "dataflow_api.h"

void kernel_main() {
    uint32_t src0 = get_arg_val<uint32_t>(0);
    uint32_t src1 = get_arg_val<uint32_t>(1);
    uint32_t n = get_arg_val<uint32_t>(2);
    uint32_t start = get_arg_val<uint32_t>(3);
    constexpr uint32_t cb0 = tt::CBIndex::c_0;
    constexpr uint32_t cb1 = tt::CBIndex::c_1;
    const uint32_t tile_bytes = get_tile_size(cb0);
    constexpr auto a_args = TensorAccessorArgs<0>();
    constexpr auto b_args = TensorAccessorArgs<1>();
    const auto a = TensorAccessor(a_args, src0, tile_bytes);
    const auto b = TensorAccessor(b_args, src1, tile_bytes);
    for (uint32_t t = start; t < start + n; t++) {
        cb_reserve_back(cb0, 1);
        cb_reserve_back(cb1, 1);
        noc_async_read_tile(t, a, get_write_ptr(cb0));
        noc_async_read_tile(t, b, get_write_ptr(cb1));
        noc_async_read_barrier();
        cb_push_back(cb0, 1);
        cb_push_back(cb1, 1);
    }
}
