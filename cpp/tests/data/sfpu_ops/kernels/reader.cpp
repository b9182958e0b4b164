// sfpu_ops reader: tiles x and y.
#include <cstdint>
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    constexpr auto args = TensorAccessorArgs<0>();
    const auto in = TensorAccessor(args, get_arg_val<uint32_t>(0));
    cb_reserve_back(tt::CBIndex::c_0, 2);
    const uint32_t l1 = get_write_ptr(tt::CBIndex::c_0);
    noc_async_read_page(0, in, l1);
    noc_async_read_page(1, in, l1 + get_tile_size(tt::CBIndex::c_0));
    noc_async_read_barrier();
    cb_push_back(tt::CBIndex::c_0, 2);
}
