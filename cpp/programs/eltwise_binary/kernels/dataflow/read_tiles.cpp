// Reader of tensim's eltwise_binary program, in today's object kernel API: tiles start..start+n of two
// interleaved DRAM tensors into c_0 and c_1, one tile at a time. The accessors' page sizes come from the
// compile-time args. Runtime args: src0 address, src1 address, n, start.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/noc.h"
#include "api/tensor/noc_traits.h"

void kernel_main() {
    uint32_t src0 = get_arg_val<uint32_t>(0);
    uint32_t src1 = get_arg_val<uint32_t>(1);
    uint32_t n = get_arg_val<uint32_t>(2);
    uint32_t start = get_arg_val<uint32_t>(3);
    constexpr auto a_args = TensorAccessorArgs<0>();
    constexpr auto b_args = TensorAccessorArgs<a_args.next_compile_time_args_offset()>();
    const auto a = TensorAccessor(a_args, src0);
    const auto b = TensorAccessor(b_args, src1);
    CircularBuffer cb0(tt::CBIndex::c_0);
    CircularBuffer cb1(tt::CBIndex::c_1);
    Noc noc;
    const uint32_t tile_bytes = cb0.get_tile_size();
    for (uint32_t t = start; t < start + n; t++) {
        cb0.reserve_back(1);
        cb1.reserve_back(1);
        noc.async_read(a, cb0, tile_bytes, {.page_id = t}, {});
        noc.async_read(b, cb1, tile_bytes, {.page_id = t}, {});
        noc.async_read_barrier();
        cb0.push_back(1);
        cb1.push_back(1);
    }
}
