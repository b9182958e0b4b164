// sfpu_approx writer: one result tile per operation.
#include <cstdint>
#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

void kernel_main() {
    constexpr auto args = TensorAccessorArgs<0>();
    const auto out = TensorAccessor(args, get_arg_val<uint32_t>(0), get_tile_size(tt::CBIndex::c_16));
    for (uint32_t t = 0; t < get_arg_val<uint32_t>(1); t++) {
        cb_wait_front(tt::CBIndex::c_16, 1);
        noc_async_write_page(t, out, get_read_ptr(tt::CBIndex::c_16));
        noc_async_write_barrier();
        cb_pop_front(tt::CBIndex::c_16, 1);
    }
}
