// row_center writer: the centred tiles to DRAM, one object-style write each.
#include <cstdint>
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/noc.h"
#include "api/dataflow/circular_buffer.h"
#include "api/tensor/tensor_accessor.h"
#include "api/tensor/noc_traits.h"

void kernel_main() {
    const uint32_t dst_addr = get_arg_val<uint32_t>(0);
    const uint32_t start_row = get_arg_val<uint32_t>(1);
    const uint32_t num_rows = get_arg_val<uint32_t>(2);
    constexpr uint32_t Wt = get_compile_time_arg_val(0);
    constexpr auto args = TensorAccessorArgs<1>();
    const auto dst = TensorAccessor(args, dst_addr);
    Noc noc;
    CircularBuffer cb_out(tt::CBIndex::c_16);
    const uint32_t bytes = cb_out.get_tile_size();
    for (uint32_t t = start_row * Wt; t < (start_row + num_rows) * Wt; t++) {
        cb_out.wait_front(1);
        noc.async_write(use<CircularBuffer::AddrSelector::READ_PTR>(cb_out), dst, bytes, {}, {.page_id = t});
        noc.async_writes_flushed();
        cb_out.pop_front(1);
    }
    noc.async_write_barrier();
}
