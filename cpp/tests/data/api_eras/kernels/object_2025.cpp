// The late-2025 object API (namespace experimental): reads tile 0 of src into a CB with experimental::Noc and
// writes it to tile 0 of dst; a CoreLocalMem view and a Semaphore touch L1 on the way.
#include <cstdint>

#include "experimental/circular_buffer.h"
#include "experimental/core_local_mem.h"
#include "experimental/endpoints.h"
#include "experimental/noc.h"
#include "experimental/noc_semaphore.h"
#include "experimental/tensor.h"

void kernel_main() {
    uint32_t src = get_arg_val<uint32_t>(0);
    uint32_t dst = get_arg_val<uint32_t>(1);
    const auto in = TensorAccessor(TensorAccessorArgs<0>(), src);
    const auto out = TensorAccessor(TensorAccessorArgs<TensorAccessorArgs<0>::next_compile_time_args_offset()>(), dst);
    experimental::Noc noc;
    experimental::CircularBuffer cb(tt::CBIndex::c_1);
    experimental::Semaphore<> sem(0);
    cb.reserve_back(1);
    noc.async_read(in, cb, cb.get_tile_size(), {.page_id = 0}, {});
    noc.async_read_barrier();
    experimental::CoreLocalMem<volatile uint32_t> first(cb.get_write_ptr());
    sem.set(first[0]);
    noc.async_write<experimental::Noc::TxnIdMode::DISABLED>(cb, out, cb.get_tile_size(), {}, {.page_id = 0});
    noc.async_write_barrier();
    DPRINT << "experimental: first word " << HEX() << sem.value() << ENDL();
}
