// Compute kernel of tensim's profiler/test_custom_cycle_count: a zone on every TRISC around `loops`
// copies of the tile in c_0 through DST into c_16 (pushed and popped again at once).
// Runtime args: loops.
#include <cstdint>

#include "compute_kernel_api/tile_move_copy.h"
#include "tools/profiler/kernel_profiler.hpp"

namespace NAMESPACE {
void MAIN {
    uint32_t loops = get_arg_val<uint32_t>(0);
    constexpr auto cb_in = tt::CBIndex::c_0;
    constexpr auto cb_out = tt::CBIndex::c_16;
    init_sfpu(cb_in, cb_out);
    DeviceZoneScopedN("TEST-COMPUTE");
    for (uint32_t i = 0; i < loops; i++) {
        tile_regs_acquire();
        copy_tile(cb_in, 0, 0);
        tile_regs_commit();
        tile_regs_wait();
        cb_reserve_back(cb_out, 1);
        pack_tile(0, cb_out);
        cb_push_back(cb_out, 1);
        tile_regs_release();
        cb_wait_front(cb_out, 1);
        cb_pop_front(cb_out, 1);
    }
}
}  // namespace NAMESPACE
