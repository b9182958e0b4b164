// sfpu_approx reader: the input tile.
#include <cstdint>
#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

void kernel_main() {
    constexpr auto args = TensorAccessorArgs<0>();
    const auto in = TensorAccessor(args, get_arg_val<uint32_t>(0), get_tile_size(tt::CBIndex::c_0));
    cb_reserve_back(tt::CBIndex::c_0, 1);
    noc_async_read_page(0, in, get_write_ptr(tt::CBIndex::c_0));
    noc_async_read_barrier();
    cb_push_back(tt::CBIndex::c_0, 1);
}
