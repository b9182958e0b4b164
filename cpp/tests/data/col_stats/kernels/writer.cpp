// col_stats writer: the band's mean and mean-square tiles into pages 2k and 2k+1 of the width-sharded output.
#include <cstdint>
#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

void kernel_main() {
    const uint32_t addr = get_arg_val<uint32_t>(0), band = get_arg_val<uint32_t>(1);
    constexpr auto args = TensorAccessorArgs<0>();
    const auto out = TensorAccessor(args, addr, get_tile_size(tt::CBIndex::c_16));
    constexpr uint32_t cb = tt::CBIndex::c_16;
    cb_wait_front(cb, 2);
    for (uint32_t j = 0; j < 2; j++) {
        noc_async_write_page(2 * band + j, out, get_read_ptr(cb) + j * get_tile_size(cb));
    }
    noc_async_write_barrier();
    cb_pop_front(cb, 2);
}
