// row_center reader: the scaler tile (1/N in the first row of each face), then the core's tile rows.
#include <cstdint>
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/noc.h"
#include "api/dataflow/circular_buffer.h"
#include "api/tensor/tensor_accessor.h"
#include "api/tensor/noc_traits.h"
#include "api/core_local_mem.h"

void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t start_row = get_arg_val<uint32_t>(1);
    const uint32_t num_rows = get_arg_val<uint32_t>(2);
    constexpr uint32_t Wt = get_compile_time_arg_val(0);
    constexpr uint32_t scaler = get_compile_time_arg_val(1);
    constexpr auto args = TensorAccessorArgs<2>();
    const auto src = TensorAccessor(args, src_addr);

    Noc noc;
    CircularBuffer cb_x(tt::CBIndex::c_0);
    CircularBuffer cb_s(tt::CBIndex::c_2);

    // The scaler tile: zeros, then 1/N in the first row of each face.
    cb_s.reserve_back(1);
    noc.async_write_zeros(cb_s, cb_s.get_tile_size());
    noc.write_zeros_l1_barrier();
    CoreLocalMem<uint32_t> s(cb_s.get_write_ptr());
    for (uint32_t face = 0; face < 4; face++) {
        for (uint32_t j = 0; j < 8; j++) s[face * 128 + j] = scaler;
    }
    cb_s.push_back(1);

    for (const auto& page : src.pages(start_row * Wt, (start_row + num_rows) * Wt)) {
        cb_x.reserve_back(1);
        noc.async_read(page, cb_x, src.get_aligned_page_size(), {}, {});
        noc.async_read_barrier();
        cb_x.push_back(1);
    }
}
