// Writer of tensim's eltwise_binary program, in today's object kernel API: n tiles from c_16 to tiles
// start..start+n of an interleaved DRAM tensor. Runtime args: dst address, n, start.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/noc.h"
#include "api/tensor/noc_traits.h"

void kernel_main() {
    uint32_t dst = get_arg_val<uint32_t>(0);
    uint32_t n = get_arg_val<uint32_t>(1);
    uint32_t start = get_arg_val<uint32_t>(2);
    constexpr auto out_args = TensorAccessorArgs<0>();
    const auto out = TensorAccessor(out_args, dst);
    CircularBuffer cb_out(tt::CBIndex::c_16);
    Noc noc;
    const uint32_t tile_bytes = cb_out.get_tile_size();
    for (uint32_t t = start; t < start + n; t++) {
        cb_out.wait_front(1);
        noc.async_write(cb_out, out, tile_bytes, {}, {.page_id = t});
        noc.async_write_barrier();
        cb_out.pop_front(1);
    }
}
