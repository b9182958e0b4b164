// Compute kernel of tensim's eltwise_binary program, in today's compute API: c_16 = c_0 + c_1, tile by tile
// on the FPU. Runtime arg 0: the number of tiles.
#include <cstdint>

#include "api/compute/common.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/eltwise_binary.h"
#include "api/compute/tile_move_copy.h"

void kernel_main() {
    uint32_t n = get_arg_val<uint32_t>(0);
    constexpr auto cb_in0 = tt::CBIndex::c_0;
    constexpr auto cb_in1 = tt::CBIndex::c_1;
    constexpr auto cb_out = tt::CBIndex::c_16;
    compute_kernel_hw_startup(cb_in0, cb_in1, cb_out);
    add_init(cb_in0, cb_in1);
    for (uint32_t i = 0; i < n; i++) {
        cb_wait_front(cb_in0, 1);
        cb_wait_front(cb_in1, 1);
        tile_regs_acquire();
        add_tiles(cb_in0, cb_in1, 0, 0, 0);
        tile_regs_commit();
        cb_pop_front(cb_in0, 1);
        cb_pop_front(cb_in1, 1);
        cb_reserve_back(cb_out, 1);
        tile_regs_wait();
        pack_tile(0, cb_out);
        tile_regs_release();
        cb_push_back(cb_out, 1);
    }
}
