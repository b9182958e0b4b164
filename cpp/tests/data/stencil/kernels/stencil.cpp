// One core of the stencil: its shard's rows, the neighbours' edge rows, a barrier through core 0.
#include <cstdint>
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/noc.h"
#include "api/dataflow/circular_buffer.h"
#include "api/dataflow/endpoints.h"
#include "api/dataflow/noc_semaphore.h"
#include "api/core_local_mem.h"
#include "api/tensor/tensor_accessor.h"
#include "api/tensor/noc_traits.h"
#include "api/debug/dprint.h"

void kernel_main() {
    uint32_t in_addr = get_arg_val<uint32_t>(0), out_addr = get_arg_val<uint32_t>(1), me = get_arg_val<uint32_t>(2);
    uint32_t lx = get_arg_val<uint32_t>(3), ly = get_arg_val<uint32_t>(4), rx = get_arg_val<uint32_t>(5), ry = get_arg_val<uint32_t>(6);
    uint32_t sem_id = get_arg_val<uint32_t>(7), x0 = get_arg_val<uint32_t>(8), y0 = get_arg_val<uint32_t>(9);
    uint32_t xl = get_arg_val<uint32_t>(10), yl = get_arg_val<uint32_t>(11);
    constexpr uint32_t rows = get_compile_time_arg_val(0), width = get_compile_time_arg_val(1), cores = get_compile_time_arg_val(2);
    constexpr auto out_args = TensorAccessorArgs<3>();
    const auto out = TensorAccessor(out_args, out_addr);
    constexpr uint32_t row_bytes = width * 4;

    Noc noc;
    CircularBuffer scratch(tt::CBIndex::c_0);
    UnicastEndpoint peer;
    // halo[0] = left's last row, halo[1] = right's first row; then the output rows.
    uint32_t halo = scratch.get_write_ptr();
    noc.async_read(peer, CoreLocalMem<uint32_t>(halo), row_bytes, {.noc_x = lx, .noc_y = ly, .addr = in_addr + (rows - 1) * row_bytes}, {});
    noc.async_read(peer, CoreLocalMem<uint32_t>(halo + row_bytes), row_bytes, {.noc_x = rx, .noc_y = ry, .addr = in_addr}, {});
    noc.async_read_barrier();

    CoreLocalMem<uint32_t> x(in_addr), h(halo), y(halo + 2 * row_bytes);
    for (uint32_t r = 0; r < rows; r++) {
        for (uint32_t j = 0; j < width; j++) {
            uint32_t up = r == 0 ? h[j] : x[(r - 1) * width + j];
            uint32_t dn = r == rows - 1 ? h[width + j] : x[(r + 1) * width + j];
            y[r * width + j] = (up + x[r * width + j] + dn) / 3;
        }
        noc.async_write(y + r * width, out, row_bytes, {}, {.page_id = me * rows + r});
    }
    noc.async_write_barrier();

    // Everyone reports to core 0, which releases them all at once.
    Semaphore<> sem(sem_id);
    sem.up(noc, x0, y0, 1);
    if (me == 0) {
        sem.wait(cores);
        sem.set(cores + 1);
        sem.set_multicast(noc, x0, y0, xl, yl, cores - 1);
        noc.async_write_barrier();
        DPRINT << "core 0 released " << cores - 1 << " cores" << ENDL();
    } else {
        sem.wait(cores + 1);
    }
}
