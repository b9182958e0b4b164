// bscale reader: the sender fetches the tile and multicasts it with the ready flag; everyone reads its tiles.
#include <cstdint>
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/noc.h"
#include "api/dataflow/circular_buffer.h"
#include "api/dataflow/noc_semaphore.h"
#include "api/tensor/tensor_accessor.h"
#include "api/tensor/noc_traits.h"

void kernel_main() {
    uint32_t src_addr = get_arg_val<uint32_t>(0), scale_addr = get_arg_val<uint32_t>(1);
    uint32_t first = get_arg_val<uint32_t>(2), n = get_arg_val<uint32_t>(3), sem_id = get_arg_val<uint32_t>(4);
    uint32_t x0 = get_arg_val<uint32_t>(5), y0 = get_arg_val<uint32_t>(6), x1 = get_arg_val<uint32_t>(7), y1 = get_arg_val<uint32_t>(8);
    uint32_t cores = get_arg_val<uint32_t>(9), is_sender = get_arg_val<uint32_t>(10);
    constexpr auto sa = TensorAccessorArgs<0>();
    constexpr auto ka = TensorAccessorArgs<sa.next_compile_time_args_offset()>();
    const auto src = TensorAccessor(sa, src_addr);
    const auto scl = TensorAccessor(ka, scale_addr);
    Noc noc;
    CircularBuffer in(tt::CBIndex::c_0), bc(tt::CBIndex::c_1);
    Semaphore<> ready(sem_id);

    bc.reserve_back(1);
    if (is_sender) {
        noc.async_read(scl, bc, bc.get_tile_size(), {.page_id = 0}, {});
        noc.async_read_barrier();
        noc.async_write_multicast<NocOptions::MCAST_INCL_SRC>(use<CircularBuffer::AddrSelector::WRITE_PTR>(bc), bc, bc.get_tile_size(), cores,
                                                              {}, {.noc_x_start = x0, .noc_y_start = y0, .noc_x_end = x1, .noc_y_end = y1});
        noc.async_write_barrier();
        ready.set(1);
        ready.set_multicast(noc, x0, y0, x1, y1, cores - 1);
        noc.async_write_barrier();
    } else {
        ready.wait(1);
    }
    bc.push_back(1);

    for (uint32_t t = first; t < first + n; t++) {
        in.reserve_back(1);
        noc.async_read(src, in, in.get_tile_size(), {.page_id = t}, {});
        noc.async_read_barrier();
        in.push_back(1);
    }
}
